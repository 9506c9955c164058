import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RunChangeActions } from '../../../../src/core/changes/attribution/runChangeActions';
import { nodeWorkspace } from '../../../../src/core/engine/nodeWorkspace';
import type { Script } from '../../../../src/core/models/scriptSchema';
import { JsonlThreadStore } from '../../../../src/core/storage/threads/jsonlThreadStore';
import { changesLeft, runChangesText } from '../../../../src/shared/changeSummary';
import { EMPTY_TREE, foldRunEvents, type RunNode } from '../../../../src/shared/runTree';
import { agent, makeEngine } from '../engineHarness';
import { gitWorld } from './gitWorld';

// Issue 42 item 3: after "Revert this run's changes" the run reads "reverted" (its thread says so,
// after a reload too), and a second revert has nothing to undo, whatever the files are now.

const TRUST = { approval: 'trust' as const, 'sandbox.mode': 'off' as const };

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

/** The supervisor delegates to a fixer, which edits a.txt and creates b.txt (in its own child thread). */
const DELEGATED: Script = {
  agents: {
    supervisor: [{ toolCalls: [{ tool: 'delegate_task', input: { task: 'fix', agents: ['fixer'] } }] }, { text: 'done' }],
    fixer: [
      { toolCalls: [{ tool: 'edit_file', input: { path: 'a.txt', oldText: 'two', newText: 'TWO' } }] },
      { toolCalls: [{ tool: 'write_file', input: { path: 'b.txt', content: 'b\n' } }] },
      { text: 'fixed' },
    ],
  },
};

async function ranDelegated() {
  const world = await gitWorld({ 'a.txt': 'one\ntwo\n' });
  cleanup = world.cleanup;
  const dir = join(world.base, 'threads');
  const store = new JsonlThreadStore({ dir, indexDelayMs: 0 });
  const workspace = nodeWorkspace({ root: world.root });
  const h = makeEngine(DELEGATED, { workspace, settings: TRUST, store, agents: { fixer: agent('fixes') } });
  const { threadId, done } = await h.engine.send({ prompt: 'go' });
  await done;
  await h.engine.whenQuiet(threadId);
  const fixer = h.runs().find((r) => r.agent === 'fixer')!;
  expect(fixer.threadId).not.toBe(threadId); // a child works in its own thread
  const actions = (over = store) =>
    new RunChangeActions({
      store: over,
      snapshots: h.engine.changes.snapshots,
      workspace,
      publish: (e) => h.engine.publish(e),
      now: () => 1234,
    });
  /** The fixer's node as a fresh store reads it from disk (a reload). */
  const reloaded = async (): Promise<RunNode> => {
    const fresh = new JsonlThreadStore({ dir, indexDelayMs: 0 });
    const family = await fresh.getFamily(threadId);
    return foldRunEvents(EMPTY_TREE, family!.events).runs[fixer.runId]!;
  };
  return { world, h, store, dir, threadId, fixer, actions, reloaded };
}

describe("a run's revert, recorded in its thread", () => {
  it('the node reads "reverted" live and after a reload; a second revert has nothing to undo, and a later edit is not "changed since"', async () => {
    const { world, h, fixer, actions, reloaded } = await ranDelegated();
    expect(runChangesText(fixer)).toBe('2 files changed (+2 −1)');

    const first = await actions().revert(fixer.threadId, fixer.runId);
    expect(first).toEqual({ reverted: ['a.txt', 'b.txt'], skipped: [] });
    expect(await world.read('a.txt')).toBe('one\ntwo\n');
    expect(existsSync(join(world.root, 'b.txt'))).toBe(false);

    // Live: the engine told its listeners (the panel's feed) of the run.reverted, in the fixer's own thread.
    const live = h.events.filter((e) => e.kind === 'run.reverted');
    expect(live).toMatchObject([
      { kind: 'run.reverted', threadId: fixer.threadId, runId: fixer.runId, ts: 1234, files: ['a.txt', 'b.txt'] },
    ]);
    const node = h.tree().runs[fixer.runId]!;
    expect(node.reverted).toEqual({ files: ['a.txt', 'b.txt'], ts: 1234 });
    expect(runChangesText(node)).toBe('changes reverted');
    expect(changesLeft(node)).toEqual([]);

    // After a reload: the same, from the thread file.
    const again = await reloaded();
    expect(again.reverted).toEqual({ files: ['a.txt', 'b.txt'], ts: 1234 });
    expect(runChangesText(again)).toBe('changes reverted');

    // The user edits a.txt after the revert: a second revert touches nothing and says there is nothing to undo.
    await world.put('a.txt', 'one\ntwo\nthe user, later\n');
    const second = await actions(new JsonlThreadStore({ dir: join(world.base, 'threads'), indexDelayMs: 0 })).revert(
      fixer.threadId,
      fixer.runId,
    );
    expect(second).toEqual({ reverted: [], skipped: [], alreadyReverted: ['a.txt', 'b.txt'] });
    expect(await world.read('a.txt')).toBe('one\ntwo\nthe user, later\n');
    // Nothing new was reverted: nothing new is recorded.
    expect(h.events.filter((e) => e.kind === 'run.reverted')).toHaveLength(1);
  });

  it('a partial revert says how many were reverted and keeps the rest revertable; the next revert finishes it', async () => {
    const { world, h, fixer, actions, reloaded } = await ranDelegated();
    await world.put('a.txt', 'one\nTWO\nthe user\n');
    const first = await actions().revert(fixer.threadId, fixer.runId);
    expect(first.reverted).toEqual(['b.txt']);
    expect(first.skipped.map((s) => s.path)).toEqual(['a.txt']);
    const partly = await reloaded();
    expect(partly.reverted?.files).toEqual(['b.txt']);
    expect(runChangesText(partly)).toBe('2 files changed (+2 −1), 1 reverted');
    expect(changesLeft(partly).map((f) => f.path)).toEqual(['a.txt']);
    const recorded = h.events.find((e) => e.kind === 'run.reverted');
    expect(recorded).toMatchObject({ files: ['b.txt'], skipped: [{ path: 'a.txt' }] });

    // The user takes their line out again: a.txt is what the run left, and the next revert restores it.
    await world.put('a.txt', 'one\nTWO\n');
    const second = await actions().revert(fixer.threadId, fixer.runId);
    expect(second).toEqual({ reverted: ['a.txt'], skipped: [], alreadyReverted: ['b.txt'] });
    expect(await world.read('a.txt')).toBe('one\ntwo\n');
    const done = await reloaded();
    expect(done.reverted?.files).toEqual(['b.txt', 'a.txt']);
    expect(runChangesText(done)).toBe('changes reverted');
  });

  it('a thread another window writes: the files are reverted all the same, and the answer says the node will not read "reverted"', async () => {
    const { world, store, dir, fixer, actions, reloaded } = await ranDelegated();
    const meta = (await store.get(fixer.threadId))!.meta;
    const otherWindow = new JsonlThreadStore({ dir, indexDelayMs: 0 });
    await otherWindow.open({ id: meta.id, title: meta.title, parentThreadId: meta.parentThreadId, agent: meta.agent });
    try {
      const result = await actions().revert(fixer.threadId, fixer.runId);
      expect(result.reverted).toEqual(['a.txt', 'b.txt']);
      expect(result.unrecorded).toMatch(/working in another window/);
      expect(await world.read('a.txt')).toBe('one\ntwo\n');
    } finally {
      await otherWindow.close(meta.id);
    }
    expect((await reloaded()).reverted).toBeUndefined();
  });

  it('a dry run records nothing', async () => {
    const { h, fixer, actions, reloaded } = await ranDelegated();
    expect((await actions().revert(fixer.threadId, fixer.runId, { dryRun: true })).reverted).toEqual(['a.txt', 'b.txt']);
    expect(h.events.some((e) => e.kind === 'run.reverted')).toBe(false);
    expect((await reloaded()).reverted).toBeUndefined();
  });
});
