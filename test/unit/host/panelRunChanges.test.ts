import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { contentHash } from '../../../src/core/changes/attribution/contentHash';
import { RunChangeActions, type DiffSides } from '../../../src/core/changes/attribution/runChangeActions';
import { nodeWorkspace } from '../../../src/core/engine/nodeWorkspace';
import { silentLogger } from '../../../src/core/ports';
import { PromptQueue } from '../../../src/core/engine/requests/promptQueue';
import { Worktrees } from '../../../src/core/changes/worktrees/worktrees';
import { threadSnapshots } from '../../../src/core/changes/attribution/threadSnapshots';
import { MemoryThreadStore } from '../../../src/core/storage/threads/memoryThreadStore';
import { PanelController } from '../../../src/host/panel/panelController';
import { PanelRunChanges, type RunChangesUi } from '../../../src/host/panel/panelRunChanges';
import type { Script } from '../../../src/core/models/scriptSchema';
import type { HostToWebview } from '../../../src/shared/protocol';
import { gitWorld } from '../core/changes/gitWorld';
import { agent, makeEngine } from '../core/engineHarness';

const TRUST = { approval: 'trust' as const, 'sandbox.mode': 'off' as const };

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

/** A panel over a real engine in a real repository, with the editor's dialogs and diff editor faked. */
async function setup(script: Script, answers: { confirm?: boolean } = {}) {
  const world = await gitWorld({ 'a.txt': 'one\ntwo\n' });
  cleanup = world.cleanup;
  const workspace = nodeWorkspace({ root: world.root });
  const worktrees = new Worktrees(join(world.base, 'storage', 'worktrees'));
  const h = makeEngine(script, {
    workspace,
    settings: TRUST,
    agents: { isolated: agent('works alone', { isolation: 'worktree' }) },
    worktrees,
  });
  const asked: string[] = [];
  const diffs: { sides: DiffSides; title: string }[] = [];
  const ui: RunChangesUi = {
    confirm: async (message) => (asked.push(message), answers.confirm ?? true),
    openDiff: async (sides, { title }) => void diffs.push({ sides, title }),
    openProposedDiff: async () => {},
  };
  const actions = new RunChangeActions({
    store: h.store,
    snapshots: h.engine.changes.snapshots,
    worktrees,
    workspace,
    publish: (e) => h.engine.publish(e),
  });
  const runChanges = new PanelRunChanges({ actions, ui, engine: h.engine, logger: silentLogger });
  const controller = new PanelController({
    engine: h.engine,
    store: h.store,
    queue: new PromptQueue(h.engine),
    memory: { get: () => undefined, set: async () => {} },
    config: () => ({ model: 'scripted:x', agents: [], problems: [], trusted: true }),
    logger: silentLogger,
    runChanges,
  });
  const posted: HostToWebview[] = [];
  controller.attach((m) => posted.push(m));
  const { threadId, done } = await h.engine.send({ prompt: 'go' });
  await done;
  await h.engine.whenQuiet(threadId);
  const notices = () => posted.filter((m): m is Extract<HostToWebview, { type: 'notice' }> => m.type === 'notice').map((m) => m.message);
  const lastWorktrees = () =>
    posted.filter((m): m is Extract<HostToWebview, { type: 'worktrees' }> => m.type === 'worktrees').at(-1)?.items;
  return { world, h, controller, asked, diffs, posted, notices, lastWorktrees, threadId };
}

const EDITS: Script = {
  agents: {
    supervisor: [
      { toolCalls: [{ tool: 'edit_file', input: { path: 'a.txt', oldText: 'two', newText: 'TWO' } }] },
      { toolCalls: [{ tool: 'write_file', input: { path: 'b.txt', content: 'b\n' } }] },
      { text: 'done' },
    ],
  },
};

describe("the panel's run changes", () => {
  it("opens a changed file's diff (before from its snapshot, after the live file) and reverts the run", async () => {
    const { world, h, controller, diffs, notices, lastWorktrees } = await setup(EDITS);
    const run = h.runs()[0]!;
    await controller.receive({ type: 'openChangeDiff', threadId: run.threadId, runId: run.runId, path: 'a.txt' });
    expect(diffs).toEqual([
      {
        sides: {
          path: 'a.txt',
          before: contentHash('one\ntwo\n'),
          after: { file: join(world.root, 'a.txt') },
          changedSince: false,
          agent: 'supervisor',
        },
        title: 'a.txt (changes of supervisor)',
      },
    ]);

    await world.put('a.txt', 'one\nTWO\nand the user\n');
    await controller.receive({ type: 'openChangeDiff', threadId: run.threadId, runId: run.runId, path: 'a.txt' });
    expect(diffs[1]!.sides.after).toEqual({ snapshot: contentHash('one\nTWO\n') });
    expect(diffs[1]!.title).toBe('a.txt (changes of supervisor, as it left it: changed since)');

    await controller.receive({ type: 'revertRun', threadId: run.threadId, runId: run.runId });
    expect(notices().at(-1)).toBe(
      'Reverted b.txt. Left as they are: a.txt (it was changed since this run changed it (by the user, another run or a later step), so reverting it would lose that change).',
    );
    expect(existsSync(join(world.root, 'b.txt'))).toBe(false);
    // Every answer comes with a fresh list of waiting worktrees (it redraws the buttons).
    expect(lastWorktrees()).toEqual([]);
    // A second revert (a.txt put back by the user as it was): nothing to undo, not "changed since" (issue 42 item 3).
    await world.put('a.txt', 'one\ntwo\n');
    await controller.receive({ type: 'revertRun', threadId: run.threadId, runId: run.runId });
    expect(notices().at(-1)).toBe("Nothing to undo: this run's changes are already reverted (a.txt, b.txt are as before the run).");
  });

  it('a revert reaches the shown conversation as its run.reverted, and its notice belongs to that conversation (issue 42 item 3)', async () => {
    const { controller, posted, threadId, h } = await setup(EDITS);
    const run = h.runs()[0]!;
    await controller.receive({ type: 'openThread', threadId });
    await controller.receive({ type: 'revertRun', threadId: run.threadId, runId: run.runId });
    const notice = posted.filter((m) => m.type === 'notice').at(-1);
    expect(notice).toEqual({ type: 'notice', level: 'info', message: 'Reverted a.txt, b.txt.', threadId });
    // The live feed hands the webview the run.reverted (batched: wait for its flush).
    await expect
      .poll(() => posted.some((m) => m.type === 'events' && m.threadId === threadId && m.events.some((e) => e.kind === 'run.reverted')))
      .toBe(true);
  });

  it('a worktree run waits on its node; Discard asks first; Apply merges', async () => {
    const script = (path: string): Script => ({
      agents: {
        supervisor: [{ toolCalls: [{ tool: 'delegate_task', input: { task: 'work', agents: ['isolated'] } }] }, { text: 'done' }],
        isolated: [{ toolCalls: [{ tool: 'write_file', input: { path, content: 'from the worktree\n' } }] }, { text: 'isolated done' }],
      },
    });
    const declined = await setup(script('c.txt'), { confirm: false });
    const child = declined.h.runs().find((r) => r.agent === 'isolated')!;
    await declined.controller.receive({ type: 'ready' });
    expect(declined.lastWorktrees()).toEqual([{ runId: child.runId, branch: `subagents/${child.runId}`, files: 1, added: 1, removed: 0 }]);
    await declined.controller.receive({ type: 'discardWorktree', runId: child.runId });
    expect(declined.asked).toEqual([`Discard the changes of run ${child.runId}?`]);
    expect(declined.lastWorktrees()).toHaveLength(1);
    await declined.controller.receive({ type: 'revertRun', threadId: child.threadId, runId: child.runId });
    expect(declined.notices().at(-1)).toBe(
      'This run worked in a git worktree, so its changes are not in the workspace: apply them or discard them instead.',
    );
    await declined.controller.receive({ type: 'applyWorktree', runId: child.runId });
    expect(declined.notices().at(-1)).toBe(`Applied the changes of run ${child.runId}: c.txt.`);
    expect(await declined.world.read('c.txt')).toBe('from the worktree\n');
    expect(declined.lastWorktrees()).toEqual([]);
  });

  it('a thread whose snapshots the size cap took: the panel is told its runs can no longer be reverted', async () => {
    const world = await gitWorld({ 'a.txt': 'one\n' });
    cleanup = world.cleanup;
    const store = new MemoryThreadStore();
    const snapshots = threadSnapshots({ threadsDir: join(world.base, 'storage'), store, maxMB: () => 1, logger: silentLogger });
    const workspace = nodeWorkspace({ root: world.root });
    const script = (path: string, content: string): Script => ({
      agents: { supervisor: [{ toolCalls: [{ tool: 'write_file', input: { path, content } }] }, { text: 'done' }] },
    });
    const runIn = async (path: string, content: string) => {
      const h = makeEngine(script(path, content), { workspace, settings: TRUST, store, snapshots });
      const { threadId, done } = await h.engine.send({ prompt: 'go' });
      await done;
      await h.engine.whenQuiet(threadId);
      return { threadId, h };
    };
    // 1.2 MB in the older thread's snapshots, a few bytes in the newer: the 1 MB cap takes the older's.
    const older = await runIn('a.txt', 'x'.repeat(1_200_000));
    await runIn('b.txt', 'small\n');
    await snapshots.enforceCap();
    const runChanges = new PanelRunChanges({
      actions: new RunChangeActions({ store, snapshots, workspace }),
      ui: { confirm: async () => true, openDiff: async () => {}, openProposedDiff: async () => {} },
      engine: older.h.engine,
      logger: silentLogger,
    });
    const posted: HostToWebview[] = [];
    runChanges.attach((m) => posted.push(m));
    await runChanges.refresh();
    const lost = posted.find((m): m is Extract<HostToWebview, { type: 'revertUnavailable' }> => m.type === 'revertUnavailable');
    expect(Object.keys(lost?.threads ?? {})).toEqual([older.threadId]);
    expect(lost!.threads[older.threadId]).toMatch(/^its snapshots were removed on .* subagents\.snapshots\.maxMB/);
  });
});
