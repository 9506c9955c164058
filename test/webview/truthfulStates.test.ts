import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/shared/events';
import { startHarness, stateMessage, ThreadScript, type Harness } from './harness';

// Issue 42 item 3 in Chromium: a child whose edit failed is not a green "done"; an approval cut off
// by Stop or a reload says so, and the sentence meant for the model is not shown.

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness?.close();
});

const MODEL_SENTENCE =
  'The user denied this edit_file call (edits a file) Nothing was done. Do not retry it or work around it; if it is needed, say so in your answer and explain why.';

describe('a child whose tool calls failed', () => {
  it('reads "done, 1 tool failed" in the warning colour, with a warning icon', async () => {
    const panel = await harness.open();
    const s = new ThreadScript();
    const edit = { path: 'src/invoice.ts', oldText: 'x', newText: 'y' };
    await panel.send(
      stateMessage('thread-1', [
        s.started('root'),
        s.started('a', { parent: 'root', agent: 'editor' }),
        s.toolStarted('a', 'e1', 'edit_file', edit),
        s.toolFinished('a', 'e1', 'edit_file', { error: 'oldText was not found in src/invoice.ts' }, true),
        s.finished('a', 'ok', 'Edited the invoice.'),
        s.started('b', { parent: 'root', agent: 'reviewer' }),
        s.finished('b', 'ok', 'Looks good.'),
        s.finished('root', 'ok', 'Done.'),
      ]),
    );
    const page = panel.page;
    const state = page.locator('.run-node[data-run-id="a"] .run-state').first();
    await state.waitFor();
    expect(await state.innerText()).toBe('done, 1 tool failed');
    expect(await state.getAttribute('class')).toBe('run-state run-failed-tools');
    // The theme's colours, as VS Code sets them on the webview's root.
    await page.evaluate(() => {
      document.documentElement.style.setProperty('--vscode-editorWarning-foreground', 'rgb(205, 151, 49)');
      document.documentElement.style.setProperty('--vscode-testing-iconPassed', 'rgb(115, 201, 145)');
    });
    expect(await state.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(205, 151, 49)');
    const icon = page.locator('.run-node[data-run-id="a"] .run-header .state-icon').first();
    expect(await icon.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(205, 151, 49)');
    expect(await page.locator('.run-node[data-run-id="a"] .run-header .state-icon').first().getAttribute('class')).toContain(
      'codicon-warning',
    );
    // A child whose calls all worked stays a plain done.
    expect(await page.locator('.run-node[data-run-id="b"] .run-state').first().getAttribute('class')).toBe('run-state sr-only');
  });
});

describe('an approval no one answered', () => {
  async function cutOff(end: (s: ThreadScript) => RunEvent[]) {
    const panel = await harness.open();
    const s = new ThreadScript();
    const edit = { path: 'src/invoice.ts', oldText: 'a', newText: 'b' };
    await panel.send(
      stateMessage(
        'thread-1',
        [
          s.started('root'),
          s.toolStarted('root', 'e', 'edit_file', edit),
          s.approvalRequested('root', 'ap', 'e', 'edit_file', edit, 'edits'),
        ],
        { busy: true },
      ),
    );
    const call = panel.page.locator('.tool-call[data-tool-call-id="e"]');
    await call.locator('.approve').waitFor();
    await panel.send({ type: 'events', threadId: 'thread-1', events: end(s) });
    return { panel, call };
  }

  it('after Stop reads "cancelled (stopped)", never "denied by you" nor the sentence for the model', async () => {
    const { panel, call } = await cutOff((s) => [
      { ...s.approvalResolved('root', 'ap', 'e', 'edit_file', 'denied'), cancelled: 'stopped' } as RunEvent,
      s.toolFinished('root', 'e', 'edit_file', MODEL_SENTENCE, true),
      s.finished('root', 'cancelled'),
    ]);
    await call.locator('.approval-outcome.cancelled', { hasText: 'Cancelled (stopped)' }).waitFor();
    await call.locator('.tool-row').click();
    await call.locator('.tool-detail').waitFor();
    const text = await call.innerText();
    expect(text).toContain('cancelled (stopped)');
    expect(text).not.toContain('denied by you');
    expect(text).not.toContain('Do not retry');
    expect(await panel.page.locator('body').innerText()).not.toContain('The user denied');
  });

  it('after a reload (the run closed as interrupted) reads "cancelled (window reloaded)"', async () => {
    const { call } = await cutOff((s) => [s.finished('root', 'interrupted')]);
    await call.locator('.approval-outcome.cancelled', { hasText: 'Cancelled (window reloaded)' }).waitFor();
    expect(await call.locator('.tool-row').innerText()).toContain('cancelled (window reloaded)');
  });
});
