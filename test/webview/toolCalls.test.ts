import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, stateMessage, ThreadScript, type Harness, type Panel } from './harness';

// Tool calls read like the editor's: a one-line summary per call; opened, the full input and the
// output as text, a diff or a terminal block, flowing with the page (no scroll box of its own).

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness?.close();
});

async function threadWithCalls(panel: Panel): Promise<void> {
  const s = new ThreadScript();
  const longOutput = Array.from({ length: 120 }, (_, i) => `  ✓ test ${i} passes`).join('\n');
  await panel.send(
    stateMessage('thread-1', [
      s.started('root', { task: 'Fix the rounding' }),
      s.toolStarted('root', 'read', 'read_file', { path: 'src/invoice.ts', startLine: 1, endLine: 80 }),
      s.toolFinished('root', 'read', 'read_file', {
        path: 'src/invoice.ts',
        startLine: 1,
        endLine: 80,
        totalLines: 120,
        content: 'export function total() {}',
      }),
      s.toolStarted('root', 'cmd', 'run_command', { command: 'npm test', timeoutMs: 60000 }),
      s.toolFinished('root', 'cmd', 'run_command', { exitCode: 1, output: `${longOutput}\nFAIL src/money.test.ts` }),
      s.toolStarted('root', 'edit', 'edit_file', {
        path: 'src/money.ts',
        oldText: 'return Math.round(x);\n',
        newText: 'const cents = x * 100;\nconst rounded = Math.round(cents);\nreturn rounded / 100;\n',
      }),
      s.toolFinished('root', 'edit', 'edit_file', { path: 'src/money.ts', line: 12 }),
      s.toolStarted('root', 'grep', 'search_text', { pattern: 'TODO' }),
      s.toolFinished('root', 'grep', 'search_text', { matches: ['src/a.ts:3: // TODO one', 'src/b.ts:9: // TODO two'] }),
      s.finished('root', 'ok', 'Fixed.'),
    ]),
  );
  await panel.page.locator('.message.assistant[data-state="ok"]').waitFor();
}

describe('tool calls', () => {
  it('read as one-line summaries', async () => {
    const panel = await harness.open();
    await threadWithCalls(panel);
    const summaries = await panel.page.locator('.run-tree > .tool-call .tool-summary').allInnerTexts();
    expect(summaries).toHaveLength(4);
    expect(summaries[0]).toBe('Read src/invoice.ts lines 1–80');
    expect(summaries[1]).toMatch(/^Ran npm test · exit 1 · \d+(\.\d)?s$/);
    expect(summaries[2]).toBe('Edited src/money.ts +3 −1');
    expect(summaries[3]).toBe('Searched for TODO · 2 matches');
    // The file in a summary is a link, the command is code.
    expect(await panel.page.locator('[data-tool-call-id="read"] .tool-summary a.file-link').innerText()).toBe('src/invoice.ts');
    expect(await panel.page.locator('[data-tool-call-id="cmd"] .tool-summary code').innerText()).toBe('npm test');
  });

  it("open to the full input, then a terminal block, a diff, a file's text, matches as links, with no scroll box of their own", async () => {
    const panel = await harness.open({ viewport: { width: 360, height: 700 } });
    await threadWithCalls(panel);
    const page = panel.page;
    for (const id of ['read', 'cmd', 'edit', 'grep']) await page.locator(`[data-tool-call-id="${id}"] .tool-row .state-icon`).click();

    const cmd = page.locator('[data-tool-call-id="cmd"] .tool-detail');
    expect(await cmd.locator('.detail-input').innerText()).toBe('timeoutMs\n60000');
    expect(await cmd.locator('.terminal .terminal-command').innerText()).toBe('$ npm test');
    expect(await cmd.locator('.terminal .terminal-output').innerText()).toContain('FAIL src/money.test.ts');
    expect(await cmd.locator('.terminal .terminal-status').innerText()).toBe('exit 1');
    // Not JSON: no braces or quoted keys anywhere in it.
    expect(await cmd.innerText()).not.toMatch(/"exitCode"|[{}]/);

    const diff = page.locator('[data-tool-call-id="edit"] .tool-detail .diff');
    expect(await diff.locator('.diff-del').allInnerTexts()).toEqual(['− return Math.round(x);\n']);
    expect(await diff.locator('.diff-add').allInnerTexts()).toEqual([
      '+ const cents = x * 100;\n',
      '+ const rounded = Math.round(cents);\n',
      '+ return rounded / 100;\n',
    ]);

    expect(await page.locator('[data-tool-call-id="read"] .detail-text').innerText()).toBe('export function total() {}');
    expect(await page.locator('[data-tool-call-id="read"] .detail-title', { hasText: 'Lines' }).innerText()).toBe('Lines 1–80 of 120');
    expect(
      await page
        .locator('[data-tool-call-id="grep"] .detail-list a.file-link')
        .evaluateAll((els) => els.map((e) => `${e.getAttribute('data-path')}:${e.getAttribute('data-line')}`)),
    ).toEqual(['src/a.ts:3', 'src/b.ts:9']);

    // Everything opened flows with the page: no element in it scrolls on its own.
    const scrollers = await page
      .locator('.tool-detail, .tool-detail *')
      .evaluateAll((els) =>
        els
          .filter((e) => e.scrollHeight > e.clientHeight + 1 && ['auto', 'scroll'].includes(getComputedStyle(e).overflowY))
          .map((e) => e.className),
      );
    expect(scrollers).toEqual([]);
    const wide = await page
      .locator('.tool-detail, .tool-detail *')
      .evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1 && e.clientWidth > 0).map((e) => e.className));
    expect(wide).toEqual([]);
    expect(panel.errors).toEqual([]);
    expect(await panel.cspViolations()).toEqual([]);
  });
});
