import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stateMessage, ThreadScript, type Harness, type Panel } from './harness';

// Hook runs on their run's node (issue 45 item 2, issue 42 item 7): the top run's under its
// answer, a child's in its expanded node; one summary line, opened by keyboard to a row per run
// (event, command, exit, duration, decision, reason); what a hook printed is text, never markup.

let harness: Harness;
beforeAll(async () => {
  const { startHarness } = await import('./harness');
  harness = await startHarness();
});
afterAll(async () => {
  await harness?.close();
});

const HOSTILE = '<img src=x onerror="window.__pwned=1"><b>bold</b> \u001b[31mred\u001b[0m';

async function threadWithHooks(panel: Panel): Promise<void> {
  const s = new ThreadScript('thread-h');
  await panel.send(
    stateMessage('thread-h', [
      s.started('root', { task: 'Clean up' }),
      s.hookRan('root', { event: 'UserPromptSubmit', command: 'echo ok', exitCode: 0, decision: 'none' }),
      s.toolStarted('root', 'call-1', 'delegate_task', { task: 'tidy', agents: ['researcher'] }),
      s.started('a', { parent: 'root', agent: 'researcher', task: 'Tidy', call: 'call-1' }),
      s.toolStarted('a', 'a-1', 'run_command', { command: 'rm -rf build' }),
      s.hookRan('a', {
        event: 'PreToolUse',
        command: '.claude/hooks/guard.sh',
        exitCode: 2,
        decision: 'block',
        note: HOSTILE,
        call: 'a-1',
      }),
      s.toolFinished('a', 'a-1', 'run_command', { error: 'blocked' }, true),
      s.finished('a', 'ok', 'Could not.'),
      s.toolFinished('root', 'call-1', 'delegate_task', [{ agent: 'researcher' }]),
      s.finished('root', 'ok', 'Done.'),
    ]),
  );
}

describe('hook runs on the node', () => {
  it("the top run's hooks sit under its answer as one line, and open to their rows", async () => {
    const panel = await harness.open();
    await threadWithHooks(panel);
    const page = panel.page;
    const top = page.locator('.message.assistant[data-run-id="root"] > .hook-runs');
    await top.waitFor();
    expect(await top.locator('summary').innerText()).toBe('1 hook ran');
    expect(await top.locator('.hook-run').isVisible()).toBe(false);
    await top.locator('summary').click();
    const row = top.locator('.hook-run');
    expect(await row.getAttribute('data-event')).toBe('UserPromptSubmit');
    expect(await row.innerText()).toMatch(/UserPromptSubmit\s+echo ok\s+exit 0 · 0\.0s · no decision/);
    expect(panel.errors).toEqual([]);
  });

  it("a child's blocking hook is on its node: reached and opened by the keyboard, its output shown as text", async () => {
    const panel = await harness.open();
    await threadWithHooks(panel);
    const page = panel.page;
    const child = page.locator('[role="treeitem"][data-run-id="a"]');
    await child.waitFor();
    await child.focus();
    await page.keyboard.press('ArrowRight');
    const hooks = child.locator('.run-result > .hook-runs');
    await hooks.locator('summary').waitFor({ state: 'visible' });
    expect(await hooks.locator('summary').innerText()).toBe('1 hook ran · 1 blocked');
    // The summary is a tab stop of its own; Enter on it opens it.
    expect(await hooks.locator('summary').evaluate((el) => el.tabIndex)).toBe(0);
    await hooks.locator('summary').focus();
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('SUMMARY');
    await page.keyboard.press('Enter');
    expect(await hooks.getAttribute('open')).toBe('');
    const row = hooks.locator('.hook-run');
    expect(await row.getAttribute('data-decision')).toBe('block');
    expect(await row.getAttribute('data-exit')).toBe('2');
    expect(await row.locator('.hook-run-command').innerText()).toBe('.claude/hooks/guard.sh');
    const note = await row.locator('.hook-run-note').innerText();
    expect(note).toBe('<img src=x onerror="window.__pwned=1"><b>bold</b> red');
    expect(await row.locator('img, b').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await row.getAttribute('title')).toBe('.claude/hooks/guard.sh\nfrom .claude/settings.json');
    expect(panel.errors).toEqual([]);
  });

  it('a run with no hooks shows no hook line', async () => {
    const panel = await harness.open();
    const s = new ThreadScript('thread-n');
    await panel.send(stateMessage('thread-n', [s.started('root', { task: 'Hi' }), s.finished('root', 'ok', 'Hello.')]));
    await panel.page.locator('.message.assistant[data-run-id="root"][data-state="ok"]').waitFor();
    expect(await panel.page.locator('.hook-runs').first().isVisible()).toBe(false);
  });
});
