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

  it('fold output longer than twenty lines behind a count, opened in place from the keyboard', async () => {
    const panel = await harness.open({ viewport: { width: 360, height: 700 } });
    const s = new ThreadScript();
    const matches = Array.from({ length: 51 }, (_, i) => `src/m${i}.ts:${i + 1}: // TODO ${i}`);
    const fileText = Array.from({ length: 120 }, (_, i) => `const line${i + 1} = ${i + 1};`).join('\n');
    await panel.send(
      stateMessage('thread-fold', [
        s.started('root', { task: 'Find the TODOs' }),
        s.toolStarted('root', 'grep', 'search_text', { pattern: 'TODO' }),
        s.toolFinished('root', 'grep', 'search_text', { matches }),
        s.toolStarted('root', 'read', 'read_file', { path: 'src/big.ts' }),
        s.toolFinished('root', 'read', 'read_file', { path: 'src/big.ts', startLine: 1, endLine: 120, totalLines: 120, content: fileText }),
        s.toolStarted('root', 'cmd', 'run_command', { command: 'npm test' }),
        s.toolFinished('root', 'cmd', 'run_command', {
          exitCode: 1,
          output: `${Array.from({ length: 120 }, (_, i) => `ok ${i + 1}`).join('\n')}\nFAIL src/money.test.ts`,
        }),
        s.finished('root', 'ok', 'Found them.'),
      ]),
    );
    const page = panel.page;
    await page.locator('.message.assistant[data-state="ok"]').waitFor();
    for (const id of ['grep', 'read', 'cmd']) await page.locator(`[data-tool-call-id="${id}"] .tool-row .state-icon`).click();

    // Folded: twenty items or lines show, and the button says how many there are.
    const grep = page.locator('[data-tool-call-id="grep"] .tool-detail');
    expect(await grep.locator('.detail-list li').count()).toBe(20);
    expect(await grep.locator('button.show-all').innerText()).toBe('51 matches, show all');
    const read = page.locator('[data-tool-call-id="read"] .tool-detail');
    expect((await read.locator('.detail-text').innerText()).split('\n')).toHaveLength(20);
    expect(await read.locator('.detail-text').innerText()).not.toContain('line21 ');
    expect(await read.locator('button.show-all').innerText()).toBe('120 lines, show all');
    // A command shows its last lines, where the verdict is.
    const cmd = page.locator('[data-tool-call-id="cmd"] .tool-detail');
    expect(await cmd.locator('button.show-all').innerText()).toBe('121 lines, show all');
    const tail = (await cmd.locator('.terminal-output').innerText()).split('\n');
    expect(tail).toHaveLength(20);
    expect(tail.at(-1)).toBe('FAIL src/money.test.ts');
    expect(tail[0]).toBe('ok 102');

    // From the tool call's row, Tab reaches the button (after the twenty links shown) and Enter opens the list in place.
    await page.locator('[data-tool-call-id="grep"]').focus();
    const focused = (): Promise<string | undefined> => page.evaluate(() => document.activeElement?.textContent ?? undefined);
    for (let tabs = 0; tabs < 30 && (await focused()) !== '51 matches, show all'; tabs++) await page.keyboard.press('Tab');
    expect(await focused()).toBe('51 matches, show all');
    await page.keyboard.press('Enter');
    expect(await grep.locator('.detail-list li').count()).toBe(51);
    expect(await grep.locator('button.show-all').count()).toBe(0);
    // The focus goes on where the fold was: the first item that was hidden, not <body>.
    expect(await focused()).toBe('src/m20.ts:21: // TODO 20');

    await read.locator('button.show-all').click();
    expect((await read.locator('.detail-text').innerText()).split('\n')).toHaveLength(120);
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('detail-text');
    await cmd.locator('button.show-all').click();
    expect(await cmd.locator('.terminal-output').innerText()).toMatch(/^ok 1\n[\s\S]*FAIL src\/money\.test\.ts$/);

    // Still one tool call row each: the fold opened inside the detail, and the tree kept its shape.
    expect(await page.locator('.run-tree > .tool-call').count()).toBe(3);
    expect(panel.errors).toEqual([]);
    expect(await panel.cspViolations()).toEqual([]);
  });
});
