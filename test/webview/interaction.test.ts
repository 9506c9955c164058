import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/shared/events';
import type { WebviewToHost } from '../../src/shared/protocol';
import { startHarness, stateMessage, ThreadScript, TRUSTED_CONFIG, type Harness, type Panel } from './harness';

// What the user does in the panel: the prompt, Stop, approvals, the tree's keyboard navigation,
// and the UI state that survives the webview being hidden.

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness?.close();
});

const sends = async (panel: Panel): Promise<WebviewToHost[]> => (await panel.posted()).filter((m) => m.type === 'send');

/** The focused tree item: a run's id, or a tool call's id. */
function focused(panel: Panel): Promise<string | null> {
  return panel.page.locator(':focus').evaluate((el) => el.getAttribute('data-run-id') ?? el.getAttribute('data-tool-call-id'));
}

describe('the prompt', () => {
  it('sends with the button and with Enter, adds a line with Shift+Enter, and sends nothing when empty', async () => {
    const panel = await harness.open();
    await panel.send(stateMessage(null, []));
    const prompt = panel.page.locator('#prompt');

    await prompt.fill('Summarize the README');
    await panel.page.locator('#send').click();
    await panel.waitForPosted((m) => m.type === 'send');
    expect(await sends(panel)).toEqual([{ type: 'send', text: 'Summarize the README' }]);
    expect(await prompt.inputValue()).toBe('');

    await prompt.fill('first line');
    await prompt.press('Shift+Enter');
    await prompt.pressSequentially('second line');
    expect(await prompt.inputValue()).toBe('first line\nsecond line');
    await prompt.press('Enter');
    await expect.poll(() => sends(panel)).toHaveLength(2);
    expect((await sends(panel))[1]).toEqual({ type: 'send', text: 'first line\nsecond line' });

    // Empty and blank prompts do nothing; the next real send proves nothing slipped in between.
    await prompt.fill('');
    await panel.page.locator('#send').click();
    await prompt.fill('   \n  ');
    await prompt.press('Enter');
    await prompt.fill('third');
    await prompt.press('Enter');
    await expect.poll(() => sends(panel)).toHaveLength(3);
    expect((await sends(panel))[2]).toEqual({ type: 'send', text: 'third' });
    expect(panel.errors).toEqual([]);
  });

  it('shows Stop while busy, which posts cancel', async () => {
    const panel = await harness.open();
    const s = new ThreadScript();
    await panel.send(stateMessage('thread-1', [s.started('root')], { busy: true }));
    const stop = panel.page.locator('#stop');
    await stop.waitFor({ state: 'visible' });
    await stop.click();
    await panel.waitForPosted((m) => m.type === 'cancel');
    await panel.send({ type: 'busy', busy: false });
    await stop.waitFor({ state: 'hidden' });
  });
});

describe('approvals', () => {
  function approvalThread(s: ThreadScript): RunEvent[] {
    return [
      s.started('root'),
      s.started('c', { parent: 'root', agent: 'researcher' }),
      s.toolStarted('c', 'call-w', 'write_file', { path: 'src/a.ts', content: 'x' }),
      s.approvalRequested('c', 'ap-1', 'call-w', 'write_file', { path: 'src/a.ts' }, 'Writes src/a.ts.'),
      s.toolStarted('c', 'call-x', 'run_command', { command: 'rm -rf build' }),
      s.approvalRequested('c', 'ap-2', 'call-x', 'run_command', { command: 'rm -rf build' }),
    ];
  }

  it('Approve once and Deny post resolveApproval, and the outcome replaces the buttons', async () => {
    const panel = await harness.open();
    const s = new ThreadScript();
    await panel.send(stateMessage('thread-1', approvalThread(s), { busy: true }));
    const write = panel.page.locator('.tool-call[data-tool-call-id="call-w"]');
    const command = panel.page.locator('.tool-call[data-tool-call-id="call-x"]');
    expect(await write.getAttribute('data-approval')).toBe('pending');
    expect(await write.locator('.approval-reason').innerText()).toContain('Writes src/a.ts.');

    await write.locator('.approve').click();
    expect(await panel.waitForPosted((m) => m.type === 'resolveApproval')).toEqual({
      type: 'resolveApproval',
      approvalId: 'ap-1',
      decision: 'approved',
    });
    await command.locator('.deny').click();
    await expect
      .poll(async () => (await panel.posted()).filter((m) => m.type === 'resolveApproval'))
      .toEqual([
        { type: 'resolveApproval', approvalId: 'ap-1', decision: 'approved' },
        { type: 'resolveApproval', approvalId: 'ap-2', decision: 'denied' },
      ]);
    // Until the host confirms, the buttons stay but cannot send again.
    expect(await write.locator('.approve').getAttribute('disabled')).not.toBeNull();

    await panel.send({
      type: 'events',
      threadId: 'thread-1',
      events: [
        s.approvalResolved('c', 'ap-1', 'call-w', 'write_file', 'approved'),
        s.approvalResolved('c', 'ap-2', 'call-x', 'run_command', 'denied'),
      ],
    });
    await write.locator('.approval-outcome.approved').waitFor();
    await command.locator('.approval-outcome.denied').waitFor();
    expect(await panel.page.locator('.approval .approve').count()).toBe(0);
  });

  it('offers Always allow for a command: its first words, editable, sent as alwaysAllow', async () => {
    const panel = await harness.open();
    const s = new ThreadScript();
    await panel.send(stateMessage('thread-1', approvalThread(s), { busy: true }));
    const write = panel.page.locator('.tool-call[data-tool-call-id="call-w"]');
    const command = panel.page.locator('.tool-call[data-tool-call-id="call-x"]');
    await command.locator('.approve').waitFor();
    // A file write is approved once or denied; only a command can be allowed for good.
    expect(await write.locator('.always-allow').count()).toBe(0);
    await command.locator('.always-allow').click();
    const prefix = command.locator('.always-prefix');
    expect(await prefix.inputValue()).toBe('rm');
    expect(await panel.page.evaluate(() => document.activeElement?.className)).toBe('always-prefix');
    await prefix.fill('rm -rf build');
    await prefix.press('Enter');
    expect(await panel.waitForPosted((m) => m.type === 'alwaysAllow')).toEqual({
      type: 'alwaysAllow',
      approvalId: 'ap-2',
      prefix: 'rm -rf build',
    });
    // Until the host answers, nothing more can be sent for it.
    expect(await command.locator('.approve').getAttribute('disabled')).not.toBeNull();
    expect(await prefix.isDisabled()).toBe(true);
  });

  it('opens the collapsed runs on the way to an approval', async () => {
    const panel = await harness.open();
    const s = new ThreadScript();
    const events = [
      s.started('root'),
      s.started('mid', { parent: 'root', agent: 'planner' }),
      s.started('c', { parent: 'mid', agent: 'researcher' }),
      s.toolStarted('c', 'call-w', 'write_file', { path: 'src/a.ts', content: 'x' }),
      s.approvalRequested('c', 'ap-1', 'call-w', 'write_file', { path: 'src/a.ts' }, 'Writes src/a.ts.'),
    ];
    await panel.send(stateMessage('thread-1', events.slice(0, 4)));
    await panel.page.locator('[role="treeitem"][data-run-id="mid"][aria-expanded="false"]').waitFor();
    await panel.send({ type: 'events', threadId: 'thread-1', events: events.slice(4) });
    await panel.page.locator('[data-run-id="c"][aria-expanded="true"] .tool-call[data-approval="pending"] .approve').first().waitFor();
    expect(await panel.page.locator('[role="treeitem"][data-run-id="mid"]').getAttribute('aria-expanded')).toBe('true');
  });
});

describe('the tree from the keyboard', () => {
  it('moves with Up/Down/Home/End, opens and closes with Left/Right/Enter/Space, with one tab stop', async () => {
    const panel = await harness.open();
    const s = new ThreadScript();
    await panel.send(
      stateMessage('thread-1', [
        s.started('root'),
        s.toolStarted('root', 'root-r', 'read_file', { path: 'README.md' }),
        s.toolFinished('root', 'root-r', 'read_file', { path: 'README.md', startLine: 1, endLine: 3, totalLines: 3, content: 'hello' }),
        s.toolStarted('root', 'root-t', 'delegate_task', { task: 't', agents: ['researcher', 'reviewer'] }),
        s.started('a', { parent: 'root', agent: 'researcher', call: 'root-t' }),
        s.toolStarted('a', 'a-t1', 'read_file', { path: 'a.ts' }),
        s.toolFinished('a', 'a-t1', 'read_file', 'file a'),
        s.toolStarted('a', 'a-t2', 'list_dir', { path: '.' }),
        s.started('b', { parent: 'root', agent: 'reviewer', call: 'root-t' }),
      ]),
    );
    const tree = panel.page.locator('.run-tree');
    await tree.locator('[data-run-id="b"]').waitFor();
    expect(await tree.locator('[tabindex="0"]').count()).toBe(1);
    expect(await tree.locator('[tabindex="0"]').getAttribute('data-tool-call-id')).toBe('root-r');

    await tree.locator('[data-tool-call-id="root-r"]').focus();
    const press = async (key: string) => panel.page.keyboard.press(key);
    await press('ArrowDown');
    expect(await focused(panel)).toBe('a');
    // Collapsed by default: Right opens, Right again goes in.
    expect(await tree.locator('[data-run-id="a"]').getAttribute('aria-expanded')).toBe('false');
    await press('ArrowRight');
    expect(await tree.locator('[data-run-id="a"]').getAttribute('aria-expanded')).toBe('true');
    await press('ArrowRight');
    expect(await focused(panel)).toBe('a-t1');
    await press('Enter');
    await tree.locator('[data-tool-call-id="a-t1"] .tool-detail', { hasText: 'file a' }).waitFor();
    expect(await tree.locator('[data-tool-call-id="a-t1"]').getAttribute('aria-expanded')).toBe('true');
    await press('ArrowLeft');
    expect(await tree.locator('[data-tool-call-id="a-t1"] .tool-detail').count()).toBe(0);
    await press('ArrowLeft');
    expect(await focused(panel)).toBe('a');
    await press('ArrowDown');
    expect(await focused(panel)).toBe('a-t1');
    await press('ArrowDown');
    expect(await focused(panel)).toBe('a-t2');
    await press('ArrowDown');
    expect(await focused(panel)).toBe('b');
    await press('ArrowUp');
    expect(await focused(panel)).toBe('a-t2');
    await press('Home');
    expect(await focused(panel)).toBe('root-r');
    await press('End');
    expect(await focused(panel)).toBe('b');
    await tree.locator('[data-run-id="a"]').focus();
    await press(' ');
    expect(await tree.locator('[data-run-id="a"]').getAttribute('aria-expanded')).toBe('false');
    expect(await tree.locator('[data-tool-call-id="a-t1"]').isVisible()).toBe(false);
    await press('End');
    expect(await focused(panel)).toBe('b');
    expect(await tree.locator('[tabindex="0"]').count()).toBe(1);
    // The ARIA structure screen readers rely on.
    expect(await tree.getAttribute('role')).toBe('tree');
    expect(await tree.locator('[data-run-id="a"] > [role="group"] > [role="treeitem"]').count()).toBe(2);
    expect(await tree.locator('[data-run-id="a"]').getAttribute('aria-level')).toBe('1');
  });
});

describe('UI state across hide and show', () => {
  it('keeps the draft prompt and the expanded runs through vscode.setState', async () => {
    const panel = await harness.open();
    const s = new ThreadScript();
    const events = [s.started('root'), s.started('a', { parent: 'root' }), s.started('b', { parent: 'root' })];
    await panel.send(stateMessage('thread-1', events));
    await panel.page.locator('#prompt').fill('half-written question');
    await panel.page.locator('[data-run-id="a"] > .run-header').click();
    await panel.page.locator('[data-run-id="a"][aria-expanded="true"]').waitFor({ state: 'attached' });
    const saved = (await panel.savedState()) as { draft: string; expanded: string[] };
    expect(saved.draft).toBe('half-written question');
    expect(saved.expanded).toEqual(['a']);

    const again = await harness.open({ savedState: saved });
    await again.send(stateMessage('thread-1', events));
    await again.page.locator('[data-run-id="a"][aria-expanded="true"]').waitFor({ state: 'attached' });
    expect(await again.page.locator('[data-run-id="b"]').getAttribute('aria-expanded')).toBe('false');
    expect(await again.page.locator('#prompt').inputValue()).toBe('half-written question');
  });
});

describe('scrolling', () => {
  it('follows new content at the bottom, stays put when scrolled up, and follows a new exchange', async () => {
    const panel = await harness.open({ viewport: { width: 400, height: 400 } });
    const s = new ThreadScript();
    await panel.send(stateMessage('thread-1', [s.started('root')]));
    await panel.page.locator('.message.assistant').waitFor();
    await panel.settle();
    const scroller = panel.page.locator('.scroller');
    const position = () =>
      scroller.evaluate((el) => ({ top: el.scrollTop, atBottom: el.scrollTop + el.clientHeight >= el.scrollHeight - 2 }));
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `Line ${i} of the answer.\n\n`).join('');

    await panel.send({ type: 'events', threadId: 'thread-1', events: [s.delta('root', lines(40))] });
    await expect.poll(async () => (await position()).atBottom && (await position()).top > 0).toBe(true);

    await scroller.evaluate((el) => el.scrollTo({ top: 0 }));
    await expect.poll(async () => (await position()).top).toBe(0);
    await panel.send({ type: 'events', threadId: 'thread-1', events: [s.delta('root', lines(10))] });
    await panel.page.locator('.message.assistant p', { hasText: 'Line 9 of the answer.' }).nth(1).waitFor();
    await panel.settle();
    expect((await position()).top).toBe(0);

    await panel.send({
      type: 'events',
      threadId: 'thread-1',
      events: [s.finished('root', 'ok', 'done'), s.started('root2', { task: 'And now?' })],
    });
    await expect.poll(async () => (await position()).atBottom && (await position()).top > 0).toBe(true);
  });
});

describe('problems', () => {
  it('shows config problems, an untrusted workspace and host notices', async () => {
    const panel = await harness.open();
    await panel.send(
      stateMessage(null, [], {
        config: {
          ...TRUSTED_CONFIG,
          problems: [{ message: 'No model is configured: set subagents.model.', severity: 'error' }],
          trusted: false,
        },
      }),
    );
    const problems = panel.page.locator('#problems');
    await problems.waitFor();
    expect(await problems.locator('.problem-error').innerText()).toContain('No model is configured');
    expect(await problems.locator('.problem-error .codicon-error').count()).toBe(1);
    expect(await problems.locator('.problem-notice').innerText()).toContain('not trusted');

    await panel.send({ type: 'notice', level: 'error', message: 'Could not load the thread.' });
    const notice = problems.locator('.problem', { hasText: 'Could not load the thread.' });
    await notice.waitFor();
    await notice.locator('.dismiss').click();
    await notice.waitFor({ state: 'detached' });

    await panel.send({ type: 'config', config: TRUSTED_CONFIG });
    await problems.waitFor({ state: 'hidden' });
  });
});
