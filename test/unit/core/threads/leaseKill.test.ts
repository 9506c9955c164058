import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { JsonlThreadStore } from '../../../../src/core/threads/jsonlThreadStore';
import { buildStoreProcess, startStoreProcess } from './storeProcess';

// A process killed at the narrowest points of a lease: as its lock folder is made, and as it is
// removed. Its thread must be free for the next process at once, not "working in another window"
// until the lock goes stale: a lock folder is never on disk without the note of who holds it.

let script: string;
let dir: string;
beforeAll(async () => {
  script = await buildStoreProcess();
}, 60_000);
afterAll(async () => {
  await rm(join(script, '..'), { recursive: true, force: true });
});
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lease-kill-'));
  return () => rm(dir, { recursive: true, force: true });
});

const top = (id: string) => ({ id, title: id, parentThreadId: null, agent: 'supervisor' });

describe.each(['die-taking', 'die-giving-back'])('a process killed in its lease (%s)', (mode) => {
  it('leaves the thread free for the next process at once, and no note of its own behind', async () => {
    const dead = startStoreProcess(script, [mode, dir, 't1']);
    const exit = await dead.exited;
    expect(exit.stderr).toBe('');
    expect(exit.signal).toBe('SIGKILL');
    // It died holding the lock: the folder is there (the case that needs breaking).
    expect((await stat(join(dir, 't1.jsonl.lock'))).isDirectory()).toBe(true);

    const next = new JsonlThreadStore({ dir, recoverInterrupted: true });
    await next.open(top('t1'));
    await next.close('t1');
    await next.closeAll();
    next.dispose();
    expect((await readdir(dir)).filter((f) => f.includes('.lock'))).toEqual([]);
  });
});
