import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebviewToHost } from '../../src/shared/protocol';
import { startHarness, stateMessage, ThreadScript, type Harness, type Panel } from './harness';

// Files and links: workspace paths in answers and tool summaries open the file at the line
// (through the typed protocol; the host checks the path); code blocks have Copy and Insert at
// cursor; the markdown stays sanitized and the CSP strict.

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness?.close();
});

const ANSWER = [
  'Totals are computed in `src/invoice.ts:42`, rounded in `src/money.ts`; see [the helper](src/format.ts#L7).',
  'Not files: `total()`, `console.log`, [a web page](https://example.com/docs), [bad](javascript:alert(1)).',
  '',
  '```ts',
  'export const cents = (x: number) => Math.round(x * 100);',
  '```',
].join('\n');

const opened = async (panel: Panel): Promise<WebviewToHost[]> => (await panel.posted()).filter((m) => m.type === 'openLocation');

async function answered(panel: Panel): Promise<void> {
  const s = new ThreadScript();
  await panel.send(
    stateMessage('thread-1', [
      s.started('root', { task: 'Where are totals?' }),
      s.toolStarted('root', 'r', 'read_file', { path: 'src/invoice.ts', startLine: 40 }),
      s.toolFinished('root', 'r', 'read_file', { path: 'src/invoice.ts', startLine: 40, endLine: 60, totalLines: 90, content: '…' }),
      s.finished('root', 'ok', ANSWER),
    ]),
  );
  await panel.page.locator('.message.assistant[data-state="ok"] .code-block').waitFor();
}

describe('file links', () => {
  it('in an answer post openLocation with the path and the line', async () => {
    const panel = await harness.open();
    await answered(panel);
    const body = panel.page.locator('.message.assistant .message-body');
    expect(await body.locator('a.file-link').allInnerTexts()).toEqual(['src/invoice.ts:42', 'src/money.ts', 'the helper']);
    await body.locator('a.file-link', { hasText: 'src/invoice.ts:42' }).click();
    await body.locator('a.file-link', { hasText: 'src/money.ts' }).click();
    // By keyboard too: a link in the answer is in the tab order.
    await body.locator('a.file-link', { hasText: 'the helper' }).focus();
    await panel.page.keyboard.press('Enter');
    await expect
      .poll(() => opened(panel))
      .toEqual([
        { type: 'openLocation', location: { path: 'src/invoice.ts', line: 42 } },
        { type: 'openLocation', location: { path: 'src/money.ts' } },
        { type: 'openLocation', location: { path: 'src/format.ts', line: 7 } },
      ]);
    // What is not a workspace path stays as it was; what is not safe has no target.
    expect(await body.locator('code', { hasText: 'total()' }).evaluate((el) => el.closest('a'))).toBeNull();
    expect(await body.locator('code', { hasText: 'console.log' }).evaluate((el) => el.closest('a'))).toBeNull();
    expect(await body.locator('a', { hasText: 'a web page' }).getAttribute('href')).toBe('https://example.com/docs');
    expect(await body.locator('a', { hasText: 'bad' }).getAttribute('href')).toBeNull();
    expect(panel.page.url()).not.toContain('#');
  });

  it('in plain text too, where a word is a path in a folder; words that only look alike stay text', async () => {
    const panel = await harness.open();
    const s = new ThreadScript();
    const text =
      'The rate lives in src/tax/rates.ts:12, and tests/tax.test.ts covers it (see docs/TAX.md). Not paths: and/or, 1.5/2.0, https://example.com/a/b.ts, ../outside/x.ts, README.md.';
    await panel.send(stateMessage('thread-1', [s.started('root', { task: 'Where?' }), s.finished('root', 'ok', text)]));
    const body = panel.page.locator('.message.assistant[data-state="ok"] .message-body');
    await body.locator('a.file-link').first().waitFor();
    expect(await body.locator('a.file-link').allInnerTexts()).toEqual(['src/tax/rates.ts:12', 'tests/tax.test.ts', 'docs/TAX.md']);
    // The sentence reads as it was written, punctuation included.
    expect(await body.innerText()).toBe(text);
    await body.locator('a.file-link', { hasText: 'src/tax/rates.ts:12' }).click();
    expect(await panel.waitForPosted((m) => m.type === 'openLocation')).toEqual({
      type: 'openLocation',
      location: { path: 'src/tax/rates.ts', line: 12 },
    });
    expect(await panel.cspViolations()).toEqual([]);
  });

  it("in a tool summary open the file at the call's line, without toggling the row", async () => {
    const panel = await harness.open();
    await answered(panel);
    const call = panel.page.locator('[data-tool-call-id="r"]');
    await call.locator('.tool-summary a.file-link').click();
    expect(await panel.waitForPosted((m) => m.type === 'openLocation')).toEqual({
      type: 'openLocation',
      location: { path: 'src/invoice.ts', line: 40 },
    });
    expect(await call.getAttribute('aria-expanded')).toBe('false');
  });
});

describe('code blocks', () => {
  it('copy to the clipboard and insert at the cursor', async () => {
    const panel = await harness.open({ clipboard: true });
    await answered(panel);
    const block = panel.page.locator('.message.assistant .code-block');
    await block.locator('.code-copy').click();
    await expect
      .poll(() => panel.page.evaluate(() => navigator.clipboard.readText()))
      .toBe('export const cents = (x: number) => Math.round(x * 100);\n');
    await block.locator('.code-copy[aria-label="Copied"]').waitFor();
    await panel.page.locator('#announcer', { hasText: 'Copied to the clipboard.' }).waitFor({ state: 'attached' });
    await block.locator('.code-insert').click();
    expect(await panel.waitForPosted((m) => m.type === 'insertAtCursor')).toEqual({
      type: 'insertAtCursor',
      text: 'export const cents = (x: number) => Math.round(x * 100);\n',
    });
    expect(await panel.cspViolations()).toEqual([]);
    expect(panel.errors).toEqual([]);
  });
});
