import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, stateMessage, ThreadScript, type Harness, type Panel } from './harness';

// A run's changed files on its node: the count in its line, each file opening its diff, Revert,
// and Apply / Discard for a worktree run whose changes wait.

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness?.close();
});

/** Shows thread-1, a run whose child changed files; the script writes its next events. */
async function threadWithChanges(panel: Panel): Promise<ThreadScript> {
  const s = new ThreadScript();
  await panel.send(
    stateMessage('thread-1', [
      s.started('root', { task: 'Fix it' }),
      s.started('c', { parent: 'root', agent: 'researcher' }),
      s.fileChanged('c', 'src/a.ts', { added: 3, removed: 1 }),
      s.fileChanged('c', 'src/new.ts', { before: null, added: 2 }),
      s.fileChanged('c', 'src/a.ts', { added: 1, removed: 1, overlap: true }),
      s.finished('c', 'ok', 'changed them'),
      s.fileChanged('root', 'README.md', { added: 1 }),
      s.finished('root', 'ok', 'Done.'),
    ]),
  );
  await panel.page.locator('.message.assistant[data-state="ok"]').waitFor();
  return s;
}

describe("a run's changed files", () => {
  it('are counted in its line; opened, each file opens its diff and Revert asks the host', async () => {
    const panel = await harness.open();
    await threadWithChanges(panel);
    const node = panel.page.locator('.run-node[data-run-id="c"]');
    expect(await node.locator('.run-changes-chip').innerText()).toBe('2 files changed (+6 −2)');
    await node.locator('.run-header .run-agent').click();
    await node.locator('.run-changes').waitFor();
    expect(await node.locator('.run-change-file').allInnerTexts()).toEqual([
      'src/a.ts (+4 −2, uncertain: another command ran at the same time)',
      'src/new.ts (new)',
    ]);
    expect(await node.getAttribute('aria-expanded')).toBe('true');

    await node.locator('.run-change-file', { hasText: 'src/new.ts' }).click();
    await panel.waitForPosted((m) => m.type === 'openChangeDiff');
    // A click in the list opens the diff; it does not fold the node.
    expect(await node.getAttribute('aria-expanded')).toBe('true');
    await node.locator('.revert-run').click();
    await panel.waitForPosted((m) => m.type === 'revertRun');
    const posted = (await panel.posted()).filter((m) => m.type === 'openChangeDiff' || m.type === 'revertRun');
    expect(posted).toEqual([
      { type: 'openChangeDiff', threadId: 'thread-1', runId: 'c', path: 'src/new.ts' },
      { type: 'revertRun', threadId: 'thread-1', runId: 'c' },
    ]);
    // Disabled until the host answers (with a fresh worktree list), so a second click sends nothing.
    expect(await node.locator('.revert-run').getAttribute('disabled')).not.toBeNull();
    await panel.send({ type: 'worktrees', items: [] });
    await expect.poll(() => node.locator('.revert-run').getAttribute('disabled')).toBeNull();
    expect(panel.errors).toEqual([]);
  });

  it("the turn's own run shows its changes under the answer", async () => {
    const panel = await harness.open();
    await threadWithChanges(panel);
    const turn = panel.page.locator('.message.assistant[data-run-id="root"]');
    const own = turn.locator(':scope > .run-controls');
    expect(await own.locator('.run-changes-heading').innerText()).toBe('1 file changed (+1 −0)');
    expect(await own.locator('.run-change-file').allInnerTexts()).toEqual(['README.md (+1 −0)']);
    expect(await turn.locator(':scope > .message-author .run-changes-chip').innerText()).toBe('1 file changed (+1 −0)');
  });

  it('a worktree run whose changes wait offers Apply to workspace and Discard instead of Revert', async () => {
    const panel = await harness.open();
    await threadWithChanges(panel);
    await panel.send({ type: 'worktrees', items: [{ runId: 'c', branch: 'subagents/c', files: 2, added: 6, removed: 2 }] });
    const node = panel.page.locator('.run-node[data-run-id="c"]');
    await node.locator('.run-header .run-agent').click();
    await node.locator('.apply-worktree').waitFor();
    expect(await node.locator('.run-changes-chip').innerText()).toBe('2 files changed in a worktree (+6 −2), not yet in the workspace');
    expect(await node.locator('.revert-run').count()).toBe(0);
    expect(await node.locator('.run-changes-note').innerText()).toBe('Branch subagents/c');
    await node.locator('.apply-worktree').click();
    await panel.waitForPosted((m) => m.type === 'applyWorktree');
    await panel.send({ type: 'worktrees', items: [{ runId: 'c', branch: 'subagents/c', files: 2, added: 6, removed: 2 }] });
    await node.locator('.discard-worktree:not([disabled])').click();
    await panel.waitForPosted((m) => m.type === 'discardWorktree');
    expect((await panel.posted()).filter((m) => m.type === 'applyWorktree' || m.type === 'discardWorktree')).toEqual([
      { type: 'applyWorktree', runId: 'c' },
      { type: 'discardWorktree', runId: 'c' },
    ]);
    // Applied or discarded: the host's next list no longer has it, and Revert is back.
    await panel.send({ type: 'worktrees', items: [] });
    await node.locator('.revert-run').waitFor();
  });

  it('a run of a thread whose snapshots the size cap took says so instead of offering Revert', async () => {
    const panel = await harness.open();
    await threadWithChanges(panel);
    const node = panel.page.locator('.run-node[data-run-id="c"]');
    await node.locator('.run-header .run-agent').click();
    await node.locator('.revert-run').waitFor();
    await panel.send({
      type: 'revertUnavailable',
      threads: { 'thread-1': 'its snapshots were removed on 2026-01-02 to keep snapshots under subagents.snapshots.maxMB' },
    });
    await node.locator('.run-changes-note').waitFor();
    expect(await node.locator('.revert-run').count()).toBe(0);
    expect(await node.locator('.run-changes-note').innerText()).toBe(
      "This run's changes can no longer be reverted: its snapshots were removed on 2026-01-02 to keep snapshots under subagents.snapshots.maxMB.",
    );
    // Its files still open their diffs (the host says what is missing there).
    expect(await node.locator('.run-change-file').count()).toBe(2);
    expect(panel.errors).toEqual([]);
  });
});

describe("a run's reverted changes", () => {
  it('the node says "reverted" (no count, no Revert) when the run.reverted of its revert arrives', async () => {
    const panel = await harness.open();
    const s = await threadWithChanges(panel);
    const node = panel.page.locator('.run-node[data-run-id="c"]');
    await node.locator('.run-header .run-agent').click();
    await node.locator('.revert-run').waitFor();
    // What the host's engine publishes after the revert: a run.reverted in the run's thread, folded live.
    await panel.send({ type: 'events', threadId: 'thread-1', events: [s.reverted('c', ['src/a.ts', 'src/new.ts'])] });
    await expect.poll(() => node.locator('.run-changes-chip').innerText()).toBe('changes reverted');
    expect(await node.locator('.revert-run').count()).toBe(0);
    expect(await node.locator('.run-changes-note').innerText()).toBe("Reverted: this run's files are as they were before it.");
    expect(await node.locator('.run-change-file').allInnerTexts()).toEqual([
      'src/a.ts (+4 −2, uncertain: another command ran at the same time) · reverted',
      'src/new.ts (new) · reverted',
    ]);
    // The parent's own change was not reverted: it keeps its count and its Revert.
    const turn = panel.page.locator('.message.assistant[data-run-id="root"]');
    expect(await turn.locator(':scope > .message-author .run-changes-chip').innerText()).toBe('1 file changed (+1 −0)');
    expect(await turn.locator(':scope > .run-controls .revert-run').count()).toBe(1);
    expect(panel.errors).toEqual([]);
  });

  it('a partial revert keeps the count, says how many were reverted, and still offers Revert', async () => {
    const panel = await harness.open();
    const s = new ThreadScript();
    await panel.send(
      stateMessage('thread-1', [
        s.started('root', { task: 'Fix it' }),
        s.fileChanged('root', 'a.ts', { added: 2, removed: 1 }),
        s.fileChanged('root', 'b.ts', { added: 1 }),
        s.finished('root', 'ok', 'Done.'),
        s.reverted('root', ['b.ts']),
      ]),
    );
    const turn = panel.page.locator('.message.assistant[data-run-id="root"]');
    await turn.waitFor();
    expect(await turn.locator(':scope > .message-author .run-changes-chip').innerText()).toBe('2 files changed (+3 −1), 1 reverted');
    expect(await turn.locator(':scope > .run-controls .revert-run').count()).toBe(1);
  });

  it("the revert's banner stays with its conversation: hidden in another, back on return", async () => {
    const panel = await harness.open();
    await threadWithChanges(panel);
    const banners = panel.page.locator('#problems .problems-notices .problem:not([hidden])');
    await panel.send({ type: 'notice', level: 'info', message: 'Reverted src/a.ts, src/new.ts.', threadId: 'thread-1' });
    await expect.poll(() => banners.allInnerTexts()).toEqual(['Reverted src/a.ts, src/new.ts.']);
    await panel.send(stateMessage('thread-2', []));
    await expect.poll(() => banners.count()).toBe(0);
    expect(await panel.page.locator('#problems').isHidden()).toBe(true);
    await threadWithChanges(panel);
    await expect.poll(() => banners.allInnerTexts()).toEqual(['Reverted src/a.ts, src/new.ts.']);
  });
});
