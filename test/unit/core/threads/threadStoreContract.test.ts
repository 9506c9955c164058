import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JsonlThreadStore } from '../../../../src/core/threads/jsonlThreadStore';
import { MemoryThreadStore } from '../../../../src/core/threads/memoryThreadStore';
import type { ThreadStore } from '../../../../src/core/threads/threadStore';
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

const text = (threadId: string, ts: number, t: string): UnsequencedRunEvent => ({ v: 1, threadId, runId: `r_${threadId}`, ts, kind: 'text.delta', text: t });
const meta = (id: string, parentThreadId: string | null = null) => ({ id, title: id, parentThreadId, agent: parentThreadId ? 'a' : 'supervisor' });

describe.each(stores)('%s', (_name, makeStore) => {
  it('stamps seq from 1, strictly increasing per thread, and refuses a thread it has not opened', async () => {
    const store = await makeStore();
    await store.open(meta('t_one'));
    await store.open(meta('t_two'));
    expect([store.append(text('t_one', 1, 'a')).seq, store.append(text('t_one', 2, 'b')).seq, store.append(text('t_two', 3, 'c')).seq]).toEqual([1, 2, 1]);
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
});
