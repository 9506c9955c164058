import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { revertRun } from '../../../../src/core/changes/attribution/revertRun';
import { nodeWorkspace } from '../../../../src/core/engine/nodeWorkspace';
import type { Script } from '../../../../src/core/models/scriptSchema';
import { runScript } from '../tools/toolWorld';
import { gitWorld } from './gitWorld';

const TRUST = { approval: 'trust' as const, 'sandbox.mode': 'off' as const };

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

/** A run that edits one file, creates one, and with a command changes a third and deletes a fourth. */
const WORK: Script = {
  agents: {
    supervisor: [
      { toolCalls: [{ tool: 'edit_file', input: { path: 'edit.txt', oldText: 'two', newText: 'TWO' } }] },
      { toolCalls: [{ tool: 'write_file', input: { path: 'dir/new.txt', content: 'new\n' } }] },
      { toolCalls: [{ tool: 'run_command', input: { command: 'echo more >> cmd.txt && rm gone.txt' } }] },
      { text: 'done' },
    ],
  },
};
const START = { 'edit.txt': 'one\ntwo\n', 'cmd.txt': 'c\n', 'gone.txt': 'g\n' };

async function ranWork() {
  const world = await gitWorld(START);
  cleanup = world.cleanup;
  const ran = await runScript(WORK, { root: world.root, settings: TRUST });
  const run = ran.h.runs()[0]!;
  return {
    world,
    ran,
    run,
    files: run.changes!.files,
    snapshots: ran.h.engine.changes.snapshots,
    workspace: nodeWorkspace({ root: world.root }),
  };
}

describe("undoing one run's work", () => {
  it('a run nobody touched since: every file is restored, a created file removed, a deleted one back', async () => {
    const { world, files, snapshots, workspace } = await ranWork();
    expect(files.map((f) => f.path)).toEqual(['edit.txt', 'dir/new.txt', 'cmd.txt', 'gone.txt']);
    const dry = await revertRun({ workspace, snapshots, files, dryRun: true });
    expect(dry).toEqual({ reverted: ['edit.txt', 'dir/new.txt', 'cmd.txt', 'gone.txt'], skipped: [] });
    expect(await world.read('edit.txt')).toBe('one\nTWO\n');

    expect(await revertRun({ workspace, snapshots, files })).toEqual({
      reverted: ['edit.txt', 'dir/new.txt', 'cmd.txt', 'gone.txt'],
      skipped: [],
    });
    expect(await world.read('edit.txt')).toBe('one\ntwo\n');
    expect(await world.read('cmd.txt')).toBe('c\n');
    // A second revert: nothing to undo, and the first revert is not "a change since" (issue 42 item 3).
    expect(await revertRun({ workspace, snapshots, files })).toEqual({
      reverted: [],
      skipped: [],
      alreadyReverted: ['edit.txt', 'dir/new.txt', 'cmd.txt', 'gone.txt'],
    });
    expect(await world.read('gone.txt')).toBe('g\n');
    expect(existsSync(join(world.root, 'dir/new.txt'))).toBe(false);
    expect(world.git('status', '--porcelain')).toBe('');
  });

  it('files changed since are listed and left as they are; the rest is reverted', async () => {
    const { world, files, snapshots, workspace } = await ranWork();
    await writeFile(join(world.root, 'edit.txt'), 'one\nTWO\nthe user added this\n');
    await writeFile(join(world.root, 'gone.txt'), 'someone made it again\n');
    const result = await revertRun({ workspace, snapshots, files });
    expect(result.reverted).toEqual(['dir/new.txt', 'cmd.txt']);
    expect(result.skipped).toEqual([
      {
        path: 'edit.txt',
        reason:
          'it was changed since this run changed it (by the user, another run or a later step), so reverting it would lose that change',
      },
      { path: 'gone.txt', reason: 'this run deleted it, and a file of that name is there again' },
    ]);
    expect(await world.read('edit.txt')).toBe('one\nTWO\nthe user added this\n');
    expect(await world.read('gone.txt')).toBe('someone made it again\n');
  });

  it('a change whose author is uncertain (overlap) is reverted only when confirmed', async () => {
    const { files, snapshots, workspace, world } = await ranWork();
    const uncertain = files.map((f) => (f.path === 'cmd.txt' ? { ...f, attribution: 'overlap' as const } : f));
    const asked: string[][] = [];
    const declined = await revertRun({
      workspace,
      snapshots,
      files: uncertain,
      dryRun: true,
      confirmOverlap: async (paths) => (asked.push(paths), false),
    });
    expect(asked).toEqual([['cmd.txt']]);
    expect(declined.skipped.map((s) => s.path)).toEqual(['cmd.txt']);
    const accepted = await revertRun({ workspace, snapshots, files: uncertain, confirmOverlap: async () => true });
    expect(accepted.reverted).toContain('cmd.txt');
    expect(await world.read('cmd.txt')).toBe('c\n');
  });
});
