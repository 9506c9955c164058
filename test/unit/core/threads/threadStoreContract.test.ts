import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JsonlThreadStore } from '../../../../src/core/storage/threads/jsonlThreadStore';
import { MemoryThreadStore } from '../../../../src/core/storage/threads/memoryThreadStore';
import { ThreadExistsError, type ThreadStore } from '../../../../src/core/storage/threads/threadStore';
import { exportThread } from '../../../../src/core/storage/threads/exportThread';
import { readThreadArchive } from '../../../../src/core/storage/threads/threadArchive';
import type { UnsequencedRunEvent } from '../../../../src/shared/events';

// The in-memory store stands in for the JSONL store in engine tests and in the bench: the same
// checks run against both, so what a test learns from one holds for the other.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const stores: [string, () => Promise<ThreadStore>][] = [
  [
    'JsonlThreadStore',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'subagents-contract-'));
      const store = new JsonlThreadStore({ dir, indexDelayMs: 1 });
      cleanups.push(async () => {
        await store.flush();
        store.dispose();
        await rm(dir, { recursive: true, force: true });
      });
      return store;
    },
  ],
  ['MemoryThreadStore', async () => new MemoryThreadStore()],
];

const run = (threadId: string, runId: string, ts: number): UnsequencedRunEvent => ({
  v: 1,
  threadId,
  runId,
  ts,
  kind: 'run.started',
  parentRunId: null,
  agent: 'supervisor',
  agentPath: ['supervisor'],
  depth: 0,
  task: 'a turn',
  model: 'scripted:s.json',
});
const end = (threadId: string, runId: string, ts: number, status: 'ok' | 'error' | 'cancelled'): UnsequencedRunEvent => ({
  v: 1,
  threadId,
  runId,
  ts,
  kind: 'run.finished',
  status,
  output: '',
  usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
  durationMs: 1,
});
const text = (threadId: string, ts: number, t: string): UnsequencedRunEvent => ({
  v: 1,
  threadId,
  runId: `r_${threadId}`,
  ts,
  kind: 'text.delta',
  text: t,
});
const meta = (id: string, parentThreadId: string | null = null) => ({
  id,
  title: id,
  parentThreadId,
  agent: parentThreadId ? 'a' : 'supervisor',
});

describe.each(stores)('%s', (_name, makeStore) => {
  it('exports a family and imports it into a fresh store: the same entries and events; a taken id is refused with nothing written', async () => {
    const store = await makeStore();
    await store.open(meta('t_root'));
    await store.open(meta('c_kid', 't_root'));
    store.append(run('t_root', 'r_root', 10));
    store.append({
      ...run('c_kid', 'r_kid', 11),
      parentRunId: 'r_root',
      parentThreadId: 't_root',
      depth: 1,
      agent: 'a',
      agentPath: ['supervisor', 'a'],
    } as UnsequencedRunEvent);
    store.append(end('c_kid', 'r_kid', 12, 'ok'));
    store.append(end('t_root', 'r_root', 13, 'ok'));
    await store.close('c_kid');
    await store.close('t_root');
    const family = (await store.getFamily('t_root'))!;
    const archived = readThreadArchive(exportThread(family, 'json', 0).text, 0);
    expect(archived.map((t) => t.meta.id)).toEqual(['t_root', 'c_kid']);
    const fresh = await makeStore();
    await fresh.importThreads(archived);
    const copy = (await fresh.getFamily('t_root'))!;
    expect(copy.events).toEqual(family.events);
    expect(copy.threads).toEqual(family.threads);
    expect((await fresh.list()).map((t) => t.id)).toEqual((await store.list()).map((t) => t.id));
    await expect(fresh.importThreads(archived)).rejects.toThrow(ThreadExistsError);
    // A new turn continues the imported thread's seq.
    await fresh.open(meta('t_root'));
    expect(fresh.append(run('t_root', 'r_next', 20)).seq).toBe(3);
    await fresh.close('t_root');
  });

  it('stamps seq from 1, strictly increasing per thread, and refuses a thread it has not opened', async () => {
    const store = await makeStore();
    await store.open(meta('t_one'));
    await store.open(meta('t_two'));
    expect([
      store.append(text('t_one', 1, 'a')).seq,
      store.append(text('t_one', 2, 'b')).seq,
      store.append(text('t_two', 3, 'c')).seq,
    ]).toEqual([1, 2, 1]);
    expect(() => store.append(text('t_never', 4, 'x'))).toThrow(/t_never/);
    await store.flush();
    const again = await store.open(meta('t_one'));
    expect(again.events.map((e) => [e.seq, e.kind === 'text.delta' && e.text])).toEqual([
      [1, 'a'],
      [2, 'b'],
    ]);
  });

  it('merges a family by time, keeping each thread in its own order and the parent first on a tie', async () => {
    const store = await makeStore();
    await store.open(meta('t_root'));
    await store.open(meta('c_child', 't_root'));
    store.append(text('t_root', 10, 'root 1'));
    store.append(text('c_child', 10, 'child 1'));
    // A clock that stepped back: the child's own order still holds.
    store.append(text('c_child', 30, 'child 2'));
    store.append(text('c_child', 20, 'child 3'));
    store.append(text('t_root', 25, 'root 2'));
    const family = await store.getFamily('t_root');
    expect(family!.events.map((e) => e.kind === 'text.delta' && e.text)).toEqual(['root 1', 'child 1', 'root 2', 'child 2', 'child 3']);
    expect((await store.getFamily('t_none')) ?? 'none').toBe('none');
  });

  it('lists every thread, most recently updated first, and deletes a thread with its descendants', async () => {
    const store = await makeStore();
    await store.open(meta('t_old'));
    await store.open(meta('t_new'));
    await store.open(meta('c_kid', 't_old'));
    store.append(text('t_old', Date.now() + 1_000, 'x'));
    store.append(text('t_new', Date.now() + 2_000, 'y'));
    store.append(text('c_kid', Date.now() + 500, 'z'));
    expect((await store.list()).map((t) => t.id)).toEqual(['t_new', 't_old', 'c_kid']);
    expect(await store.delete('t_old')).toBe(true);
    expect(await store.delete('t_old')).toBe(false);
    expect(await store.get('c_kid')).toBeUndefined();
    expect((await store.list()).map((t) => t.id)).toEqual(['t_new']);
  });

  it("keeps each thread's turn count and status in its entry: empty, running while a run works, then how the last one ended", async () => {
    const store = await makeStore();
    await store.open(meta('t_a'));
    const entry = async () => (await store.list()).find((t) => t.id === 't_a')!;
    expect(await entry()).toMatchObject({ runCount: 0, status: 'empty' });
    store.append(run('t_a', 'r1', 10));
    expect(await entry()).toMatchObject({ runCount: 1, status: 'running' });
    store.append(end('t_a', 'r1', 20, 'error'));
    expect(await entry()).toMatchObject({ runCount: 1, status: 'error' });
    store.append(run('t_a', 'r2', 30));
    store.append(end('t_a', 'r2', 40, 'ok'));
    // A repeated end (a replay) is not another turn.
    store.append(end('t_a', 'r2', 41, 'ok'));
    expect(await entry()).toMatchObject({ runCount: 2, status: 'ok' });
    expect((await store.get('t_a'))!.meta).toMatchObject({ runCount: 2, status: 'ok' });
  });

  it('renames a thread in its entry without moving it in the list, and says when there is no such thread', async () => {
    const store = await makeStore();
    await store.open(meta('t_first'));
    await store.open(meta('t_second'));
    store.append(text('t_first', Date.now() + 1_000, 'x'));
    store.append(text('t_second', Date.now() + 2_000, 'y'));
    expect(await store.rename('t_first', 'Invoice rounding')).toBe(true);
    expect((await store.list()).map((t) => [t.id, t.title])).toEqual([
      ['t_second', 't_second'],
      ['t_first', 'Invoice rounding'],
    ]);
    expect((await store.get('t_first'))!.meta.title).toBe('Invoice rounding');
    expect(await store.rename('t_missing', 'x')).toBe(false);
  });
});
