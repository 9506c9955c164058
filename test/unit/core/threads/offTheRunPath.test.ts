import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { leaseHeld, takeFileLock, type FileLockOptions } from '../../../../src/core/platform/files/fileLock';
import { JsonlThreadStore } from '../../../../src/core/storage/threads/jsonlThreadStore';
import { ThreadBusyError } from '../../../../src/core/storage/threads/threadLeases';
import type { RunEvent, UnsequencedRunEvent } from '../../../../src/shared/events';
import { call, jsonlWindow, text } from './jsonlWindow';

// What a run waits for from the JSONL store: a new thread's lease and an index write are taken off
// its path (the lease is taken before anything is written; the index, which loading rebuilds from
// the thread files, is written coalesced), so a delegation costs no lock round trips.

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'offpath-'));
  return () => rm(dir, { recursive: true, force: true });
});

const top = (id: string) => ({ id, title: 'go', parentThreadId: null, agent: 'supervisor' });
const started = (threadId: string): UnsequencedRunEvent =>
  ({
    v: 1,
    kind: 'run.started',
    threadId,
    runId: 'r1',
    ts: 1,
    parentRunId: null,
    agent: 'supervisor',
    agentPath: ['supervisor'],
    depth: 0,
    task: 'go',
    model: 'm',
  }) as UnsequencedRunEvent;
const delta = (threadId: string, runId: string, i: number): UnsequencedRunEvent =>
  ({ v: 1, kind: 'text.delta', threadId, runId, ts: 2 + i, text: `part ${i} ` }) as UnsequencedRunEvent;
const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/** A lease lock that is granted only when the test says so. */
function gatedLock() {
  const asked: string[] = [];
  let grant!: () => void;
  let refuse!: () => void;
  const gate = new Promise<'grant' | 'refuse'>((resolve) => {
    grant = () => resolve('grant');
    refuse = () => resolve('refuse');
  });
  const takeLock = async (path: string, options: FileLockOptions) => {
    asked.push(path);
    if ((await gate) === 'refuse') throw new ThreadBusyError('t_new');
    return takeFileLock(path, options);
  };
  return { asked, takeLock, grant: () => grant(), refuse: () => refuse() };
}

describe("the JSONL store off a run's path", () => {
  it('opens a new thread before its lease is granted, and writes nothing until it is', async () => {
    const leases = gatedLock();
    const store = new JsonlThreadStore({ dir, takeLock: leases.takeLock });
    const loaded = await store.open(top('t_new'), { newId: true });
    expect(loaded.events).toEqual([]);
    const event = store.append(started('t_new'));
    expect(event.seq).toBe(1);
    const flushed = store.flush();
    // The lease is asked for at once, and the file is made meanwhile (two round trips at once, not
    // one after the other, on a run's tail), but nothing is written to it before the lease is held.
    await expect.poll(() => leases.asked).toEqual([join(dir, 't_new.jsonl')]);
    await expect.poll(() => exists(join(dir, 't_new.jsonl')), { interval: 0 }).toBe(true);
    expect(await readFile(join(dir, 't_new.jsonl'), 'utf8')).toBe('');
    leases.grant();
    await flushed;
    const lines = (await readFile(join(dir, 't_new.jsonl'), 'utf8')).trim().split('\n');
    expect(lines.map((l) => JSON.parse(l) as RunEvent)).toEqual([event]);
    // Held while open: another process (here a second store) is refused.
    await expect(new JsonlThreadStore({ dir }).open(top('t_new'))).rejects.toThrow(ThreadBusyError);
    await store.close('t_new');
    await store.closeAll();
    store.dispose();
  });

  it('a new thread whose lease is refused writes nothing and says why on flush', async () => {
    const leases = gatedLock();
    const store = new JsonlThreadStore({ dir, takeLock: leases.takeLock });
    await store.open(top('t_new'), { newId: true });
    store.append(started('t_new'));
    await expect.poll(() => exists(join(dir, 't_new.jsonl')), { interval: 0 }).toBe(true);
    leases.refuse();
    await expect(store.flush()).rejects.toThrow(/another window/);
    // The empty file it had made is gone with the refusal.
    expect(await exists(join(dir, 't_new.jsonl'))).toBe(false);
    store.dispose();
  });

  it("a child thread is written under its conversation's lease: no lock of its own, and no other process opens it meanwhile", async () => {
    const locked: string[] = [];
    const takeLock = (path: string, options: FileLockOptions) => {
      locked.push(path);
      return takeFileLock(path, options);
    };
    const store = new JsonlThreadStore({ dir, takeLock });
    await store.open(top('t_root'), { newId: true });
    const child = (id: string, parent: string) => ({ id, title: 'part', parentThreadId: parent, agent: 'a' });
    for (const id of ['c_1', 'c_2', 'c_3']) await store.open(child(id, 't_root'), { newId: true });
    await store.open(child('c_grand', 'c_1'), { newId: true });
    const parents: Record<string, string> = { c_1: 't_root', c_2: 't_root', c_3: 't_root', c_grand: 'c_1' };
    for (const [id, parent] of Object.entries(parents))
      store.append({ ...started(id), agent: 'a', parentThreadId: parent, parentRunId: 'r0', depth: 1 } as UnsequencedRunEvent);
    await store.flushThreads();
    expect(locked).toEqual([join(dir, 't_root.jsonl')]);
    // A child closed while its conversation works here is still not another window's to open.
    await store.close('c_2');
    const other = new JsonlThreadStore({ dir });
    await expect(other.open(child('c_2', 't_root'))).rejects.toThrow(ThreadBusyError);
    await expect(other.open({ id: 'c_2', title: 'x', parentThreadId: null, agent: 'a' })).rejects.toThrow(ThreadBusyError);
    for (const id of ['c_grand', 'c_1', 'c_3', 't_root']) await store.close(id);
    // Once every open of the conversation is closed, the lease is free.
    await other.open(child('c_2', 't_root'));
    await other.close('c_2');
    await other.closeAll();
    await store.closeAll();
    store.dispose();
    other.dispose();
  });

  it('another window lists a thread whose entry is not written yet from its file, with the title its first run gives, never a placeholder', async () => {
    const a = new JsonlThreadStore({ dir });
    const b = new JsonlThreadStore({ dir });
    await b.list();
    await a.open({ ...top('t_fresh'), title: 'Count the files' }, { newId: true });
    await a.close('t_fresh');
    expect(await exists(join(dir, 't_fresh.jsonl'))).toBe(true);
    // Made, nothing in it yet, no index entry: not listed as "(untitled)".
    expect((await b.list()).map((t) => t.id)).not.toContain('t_fresh');
    await a.open(top('t_fresh'));
    a.append({ ...started('t_fresh'), task: 'Count the files' } as UnsequencedRunEvent);
    await a.flushThreads();
    expect((await b.list()).find((t) => t.id === 't_fresh')).toMatchObject({ title: 'Count the files', status: 'running' });
    await a.flush();
    expect((await b.list()).find((t) => t.id === 't_fresh')).toMatchObject({ title: 'Count the files' });
    await a.closeAll();
    a.dispose();
    b.dispose();
  });

  it("writes a run's threads and gives their lease back without waiting on the event loop, so nothing is left for after the answer", async () => {
    const store = new JsonlThreadStore({ dir });
    // The first lease of a process in a folder makes its owner note, and the first open reads the index: once each.
    await store.open(top('t_first'), { newId: true });
    await store.close('t_first');
    // A run that never waits (a model that answers at once): everything the store does for it must
    // be done before the loop's next turn. An operation through libuv's thread pool (an async open,
    // append, mkdir or unlink) finishes only on a later turn, after the run has answered.
    let turns = 0;
    const turn = setImmediate(() => turns++);
    await store.open(top('t_run'), { newId: true });
    await store.open({ id: 'c_1', title: 'part', parentThreadId: 't_run', agent: 'a' }, { newId: true });
    const written = [
      store.append(started('t_run')),
      store.append({
        ...started('c_1'),
        runId: 'r2',
        agent: 'a',
        parentThreadId: 't_run',
        parentRunId: 'r1',
        depth: 1,
      } as UnsequencedRunEvent),
    ];
    for (let i = 0; i < 50; i++) written.push(store.append(delta('c_1', 'r2', i)));
    await store.close('c_1');
    await store.close('t_run');
    await store.flushThreads();
    expect(turns).toBe(0);
    clearImmediate(turn);
    const lines = async (id: string) =>
      (await readFile(join(dir, `${id}.jsonl`), 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as RunEvent);
    expect([...(await lines('t_run')), ...(await lines('c_1'))]).toEqual(written);
    expect(await leaseHeld(join(dir, 't_run.jsonl'), 10_000)).toBe(false);
    // Free for another process at once.
    const other = new JsonlThreadStore({ dir });
    await other.open(top('t_run'));
    await other.closeAll();
    other.dispose();
    await store.closeAll();
    store.dispose();
  });

  it("an engine's run is quiet once its threads are on disk, while the index write waits for another process's lock", async () => {
    const { store, engine } = jsonlWindow(dir, (caller, n) =>
      caller.agent === 'supervisor' && n === 0
        ? call('c1', 'delegate_task', { task: 'count', agents: ['a'] })
        : text(`${caller.agent} done`),
    );
    // The store made its folder and index on load; now another writer holds the index's lock.
    await store.list();
    const releaseIndex = await takeFileLock(join(dir, 'index.json'), { staleMs: 10_000, onCompromised: () => undefined });
    const sent = await engine.send({ prompt: 'count it' });
    await sent.done;
    await engine.whenQuiet(sent.threadId);
    const topEvents = (await readFile(join(dir, `${sent.threadId}.jsonl`), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as RunEvent);
    expect(topEvents.at(-1)).toMatchObject({ kind: 'run.finished', status: 'ok' });
    const child = (await store.list()).find((t) => t.parentThreadId === sent.threadId)!;
    const childEvents = (await readFile(join(dir, `${child.id}.jsonl`), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as RunEvent);
    expect(childEvents.at(-1)).toMatchObject({ kind: 'run.finished', status: 'ok', output: 'a done' });
    // The threads are free for another window at once: no lease is held on either.
    expect(await leaseHeld(join(dir, `${sent.threadId}.jsonl`), 10_000)).toBe(false);
    expect(await leaseHeld(join(dir, `${child.id}.jsonl`), 10_000)).toBe(false);
    // The index follows when the lock is free: both threads, as a fresh reader sees them.
    await releaseIndex();
    await store.flush();
    const index = JSON.parse(await readFile(join(dir, 'index.json'), 'utf8')) as { threads: { id: string }[] };
    const ids = index.threads.map((t) => t.id);
    expect(ids).toEqual(expect.arrayContaining([sent.threadId, child.id]));
    store.dispose();
  });
});
