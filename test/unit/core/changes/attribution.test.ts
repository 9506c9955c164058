import { mkfifo } from './fifo';
import { afterEach, describe, expect, it } from 'vitest';
import { contentHash } from '../../../../src/core/changes/attribution/contentHash';
import type { RunEventOf } from '../../../../src/shared/events';
import { runScript, supervisorCalls } from '../tools/toolWorld';
import { gitWorld, plainWorld } from './gitWorld';

const TRUST = { approval: 'trust' as const, 'sandbox.mode': 'off' as const };
const hash = (text: string) => contentHash(text);

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

function changes(events: readonly { kind: string }[]) {
  return events
    .filter((e): e is RunEventOf<'file.changed'> => e.kind === 'file.changed')
    .map(({ path, beforeHash, afterHash, added, removed, attribution, toolCallId }) => ({
      path,
      beforeHash,
      afterHash,
      added,
      removed,
      attribution,
      toolCallId,
    }));
}

describe('every change has an author: write_file and edit_file', () => {
  it('a created file, a replaced one and an edit are file.changed events of the run that made them, with their snapshots', async () => {
    const world = await gitWorld({ 'a.txt': 'one\ntwo\nthree\n' });
    cleanup = world.cleanup;
    const { h, ofKind } = await runScript(
      {
        agents: {
          supervisor: [
            { toolCalls: [{ tool: 'write_file', input: { path: 'new/b.txt', content: 'b1\nb2\n' } }] },
            { toolCalls: [{ tool: 'read_file', input: { path: 'a.txt' } }] },
            { toolCalls: [{ tool: 'edit_file', input: { path: 'a.txt', oldText: 'two', newText: 'TWO\nTWO and a half' } }] },
            { text: 'done' },
          ],
        },
      },
      { root: world.root, settings: TRUST },
    );
    const runId = ofKind('run.started')[0]!.runId;
    const calls = ofKind('tool.started').map((e) => e.toolCallId);
    const found = ofKind('file.changed');
    expect(found.every((e) => e.runId === runId)).toBe(true);
    expect(changes(found)).toEqual([
      {
        path: 'new/b.txt',
        beforeHash: null,
        afterHash: hash('b1\nb2\n'),
        added: 2,
        removed: 0,
        attribution: 'exact',
        toolCallId: calls[0],
      },
      {
        path: 'a.txt',
        beforeHash: hash('one\ntwo\nthree\n'),
        afterHash: hash('one\nTWO\nTWO and a half\nthree\n'),
        added: 2,
        removed: 1,
        attribution: 'exact',
        toolCallId: calls[2],
      },
    ]);
    const snapshots = h.engine.changes.snapshots;
    expect((await snapshots.get(hash('one\ntwo\nthree\n')))?.toString()).toBe('one\ntwo\nthree\n');
    expect((await snapshots.get(hash('b1\nb2\n')))?.toString()).toBe('b1\nb2\n');
    // The node folds them: "2 files changed (+4 −1)".
    const node = h.tree().runs[runId]!;
    expect(node.changes).toMatchObject({ added: 4, removed: 1 });
    expect(node.changes?.files.map((f) => f.path)).toEqual(['new/b.txt', 'a.txt']);
  });
});

describe('every change has an author: run_command', () => {
  it('compares the repository before and after: clean, dirty, untracked, deleted files; ignored ones are left out', async () => {
    const world = await gitWorld({ 'clean.txt': 'c1\nc2\n', 'dirty.txt': 'd1\n', 'gone.txt': 'g\n', '.gitignore': 'build/\n' });
    cleanup = world.cleanup;
    await world.put('dirty.txt', 'd1\nd2 (uncommitted)\n');
    await world.put('untracked.txt', 'u1\n');
    const command =
      "printf 'c1\\nC2\\n' > clean.txt && echo d3 >> dirty.txt && echo u2 >> untracked.txt && rm gone.txt && echo n > made.txt && mkdir -p build && echo x > build/out.js";
    const { h, ofKind } = await runScript(supervisorCalls({ tool: 'run_command', input: { command } }), {
      root: world.root,
      settings: TRUST,
    });
    expect(ofKind('tool.finished')[0]!.output).toMatchObject({ exitCode: 0 });
    const call = ofKind('tool.started')[0]!.toolCallId;
    expect(changes(ofKind('file.changed'))).toEqual([
      {
        path: 'clean.txt',
        beforeHash: hash('c1\nc2\n'),
        afterHash: hash('c1\nC2\n'),
        added: 1,
        removed: 1,
        attribution: 'exact',
        toolCallId: call,
      },
      {
        path: 'dirty.txt',
        beforeHash: hash('d1\nd2 (uncommitted)\n'),
        afterHash: hash('d1\nd2 (uncommitted)\nd3\n'),
        added: 1,
        removed: 0,
        attribution: 'exact',
        toolCallId: call,
      },
      { path: 'gone.txt', beforeHash: hash('g\n'), afterHash: null, added: 0, removed: 1, attribution: 'exact', toolCallId: call },
      { path: 'made.txt', beforeHash: null, afterHash: hash('n\n'), added: 1, removed: 0, attribution: 'exact', toolCallId: call },
      {
        path: 'untracked.txt',
        beforeHash: hash('u1\n'),
        afterHash: hash('u1\nu2\n'),
        added: 1,
        removed: 0,
        attribution: 'exact',
        toolCallId: call,
      },
    ]);
    // The clean file's before came from git; the dirty and untracked ones were snapshotted before the command.
    const snapshots = h.engine.changes.snapshots;
    for (const text of ['c1\nc2\n', 'd1\nd2 (uncommitted)\n', 'u1\n', 'g\n'])
      expect((await snapshots.get(hash(text)))?.toString()).toBe(text);
  });

  it('a command that commits what it changed is still seen (HEAD moved)', async () => {
    const world = await gitWorld({ 'a.txt': 'a\n' });
    cleanup = world.cleanup;
    const command = 'echo b >> a.txt && git commit -qam next';
    const { ofKind } = await runScript(supervisorCalls({ tool: 'run_command', input: { command } }), { root: world.root, settings: TRUST });
    expect(changes(ofKind('file.changed')).map((c) => [c.path, c.beforeHash, c.afterHash])).toEqual([
      ['a.txt', hash('a\n'), hash('a\nb\n')],
    ]);
  });

  it('in a folder that is not a repository, every file (but the ignored ones) is compared', async () => {
    const world = await plainWorld({ 'keep.txt': 'k\n', 'edit.txt': 'e\n', 'rm.txt': 'r\n', '.gitignore': '*.log\n' });
    cleanup = world.cleanup;
    const { ofKind } = await runScript(
      supervisorCalls({ tool: 'run_command', input: { command: 'echo f >> edit.txt; rm rm.txt; echo n > new.txt; echo l > x.log' } }),
      { root: world.root, settings: TRUST },
    );
    expect(changes(ofKind('file.changed')).map((c) => [c.path, c.beforeHash, c.afterHash])).toEqual([
      ['edit.txt', hash('e\n'), hash('e\nf\n')],
      ['new.txt', null, hash('n\n')],
      ['rm.txt', hash('r\n'), null],
    ]);
  });

  it('two commands at the same time: their changes are marked overlap (the author is uncertain)', async () => {
    const world = await gitWorld({ 'a.txt': 'a\n', '.gitignore': 'go\n' });
    cleanup = world.cleanup;
    // A waits on a named pipe until B writes to it: the two run at once, whatever the order they start in.
    await mkfifo(world.root, 'go');
    const { ofKind } = await runScript(
      supervisorCalls(
        { tool: 'run_command', input: { command: `echo one > one.txt && read _ < go` } },
        { tool: 'run_command', input: { command: `echo two > two.txt && echo go > go` } },
      ),
      { root: world.root, settings: TRUST },
    );
    // A command may also see the other's file appear (when it looked before the other wrote): it
    // cannot tell which is its own, so every change is listed as overlap.
    const found = changes(ofKind('file.changed'));
    const [first, second] = ofKind('tool.started').map((e) => e.toolCallId);
    expect(found.filter((c) => c.toolCallId === first).map((c) => c.path)).toContain('one.txt');
    expect(found.filter((c) => c.toolCallId === second).map((c) => c.path)).toContain('two.txt');
    expect(found.every((c) => c.attribution === 'overlap')).toBe(true);
  });

  it('a command alone: its changes are exact, and a file it did not touch is not listed', async () => {
    const world = await gitWorld({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    cleanup = world.cleanup;
    await world.put('b.txt', 'b dirty\n');
    const { ofKind } = await runScript(supervisorCalls({ tool: 'run_command', input: { command: 'echo more >> a.txt' } }), {
      root: world.root,
      settings: TRUST,
    });
    expect(changes(ofKind('file.changed')).map((c) => [c.path, c.attribution])).toEqual([['a.txt', 'exact']]);
  });
});
