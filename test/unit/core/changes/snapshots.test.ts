import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentHash } from '../../../../src/core/changes/attribution/contentHash';
import { FileSnapshotStore } from '../../../../src/core/changes/attribution/fileSnapshotStore';
import { revertRun } from '../../../../src/core/changes/attribution/revertRun';
import type { ThreadReferences } from '../../../../src/core/changes/attribution/snapshotCap';
import { nodeWorkspace } from '../../../../src/core/engine/nodeWorkspace';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'subagents-snapshots-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const KB = 1024;
const blob = (tag: string) => `${tag}\n${'x'.repeat(KB - tag.length - 1)}`; // 1 KB each

function storeWith(references: ThreadReferences[], maxBytes: number) {
  return new FileSnapshotStore({ dir: join(dir, 'snapshots'), maxBytes: () => maxBytes, references: async () => references });
}

describe('snapshots', () => {
  it('are content-addressed and kept once, and a new store on the same folder (a reload) has them', async () => {
    const store = storeWith([], 1e9);
    const a = await store.put('same content\n');
    const b = await store.put(Buffer.from('same content\n'));
    expect(a).toBe(b);
    expect(a).toBe(contentHash('same content\n'));
    const objects = join(dir, 'snapshots', 'objects');
    const files = (await readdir(objects, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
    expect(files.map((f) => f.name)).toEqual([a]);
    expect((await storeWith([], 1e9).get(a))?.toString()).toBe('same content\n');
  });

  it('a damaged snapshot file is no snapshot', async () => {
    const store = storeWith([], 1e9);
    const hash = await store.put('good\n');
    await writeFile(join(dir, 'snapshots', 'objects', hash.slice(0, 2), hash), 'tampered\n');
    expect(await store.get(hash)).toBeUndefined();
  });

  it("past the cap: unreferenced ones go first, then the oldest threads' (newest kept whatever it weighs); their runs lose revert with a note", async () => {
    const hashes: Record<string, string> = {};
    const prep = storeWith([], 1e9);
    for (const tag of ['old1', 'old2', 'shared', 'mid1', 'new1', 'new2', 'loose', 'pinned']) hashes[tag] = await prep.put(blob(tag));
    const refs: ThreadReferences[] = [
      { threadId: 't_old', updatedAt: 1, hashes: new Set([hashes.old1!, hashes.old2!, hashes.shared!]) },
      { threadId: 't_mid', updatedAt: 2, hashes: new Set([hashes.mid1!, hashes.shared!]) },
      { threadId: 't_new', updatedAt: 3, hashes: new Set([hashes.new1!, hashes.new2!]) },
    ];
    // One no thread refers to, left from long ago (one just written may be a run's whose event is not written yet).
    const longAgo = new Date(Date.now() - 3_600_000);
    await utimes(join(dir, 'snapshots', 'objects', hashes.loose!.slice(0, 2), hashes.loose!), longAgo, longAgo);
    // 8 KB stored; the cap is 5 KB.
    const store = storeWith(refs, 5 * KB);
    store.retain({}, [hashes.pinned!]);
    await store.enforceCap();
    const kept = async (tag: string) => (await store.get(hashes[tag]!)) !== undefined;
    expect(await kept('loose')).toBe(false); // referenced by no thread: first to go
    expect(await kept('pinned')).toBe(true); // a command's before-state, still needed
    expect([await kept('old1'), await kept('old2')]).toEqual([false, false]);
    expect(await kept('shared')).toBe(true); // the middle thread still refers to it
    expect([await kept('mid1'), await kept('new1'), await kept('new2')]).toEqual([true, true, true]);
    expect(await store.prunedNote('t_old')).toMatch(
      /^its snapshots were removed on .* to keep snapshots under subagents\.snapshots\.maxMB \(the oldest threads' go first\)$/,
    );
    expect(await store.prunedNote('t_mid')).toBeUndefined();

    // A run of the pruned thread: its revert says why it cannot restore the file.
    const ws = join(dir, 'ws');
    await mkdir(ws);
    await writeFile(join(ws, 'f.txt'), 'after\n');
    const result = await revertRun({
      workspace: nodeWorkspace({ root: ws }),
      snapshots: store,
      files: [{ path: 'f.txt', beforeHash: hashes.old1!, afterHash: contentHash('after\n'), added: 1, removed: 1, attribution: 'exact' }],
      prunedNote: (await store.prunedNote('t_old'))!,
    });
    expect(result.skipped).toEqual([
      {
        path: 'f.txt',
        reason: expect.stringMatching(
          /^no snapshot of its earlier content is kept \(its snapshots were removed on .* subagents\.snapshots\.maxMB/,
        ),
      },
    ]);
  });

  it('a cap check asked for while one is under way runs again after it, with the threads as they are then', async () => {
    const refs: ThreadReferences[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let calls = 0;
    const store = new FileSnapshotStore({
      dir: join(dir, 'snapshots'),
      maxBytes: () => 1.5 * KB,
      // The first pass reads the threads before the newer one has written its events.
      references: async () => (calls++ === 0 ? (await held, [refs[0]!]) : refs),
    });
    const old = await store.put(blob('old'));
    const fresh = await store.put(blob('new')); // over the cap: a pass starts, and waits on `held`
    refs.push({ threadId: 't_old', updatedAt: 1, hashes: new Set([old]) }, { threadId: 't_new', updatedAt: 2, hashes: new Set([fresh]) });
    const asked = store.enforceCap(); // the run ended: its thread is written now
    release();
    await asked;
    expect(await store.get(old)).toBeUndefined();
    expect(await store.get(fresh)).toBeDefined();
    expect(await store.prunedNote('t_old')).toBeDefined();
  });
});
