import { mkdtemp, readdir, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ThreadRetention } from '../../../../src/core/config/settings/engineSettings';
import { ThreadPruner } from '../../../../src/core/storage/retention/threadPruner';
import { threadsToPrune } from '../../../../src/core/storage/retention/threadsToPrune';
import { JsonlThreadStore } from '../../../../src/core/storage/threads/jsonlThreadStore';
import type { ThreadMeta } from '../../../../src/core/storage/threads/threadStore';
import { silentLogger } from '../../../../src/core/ports';
import { threadSnapshots } from '../../../../src/core/changes/attribution/threadSnapshots';
import { listBlobs } from '../../../../src/core/changes/attribution/snapshotCap';
import { makeEngine } from '../engineHarness';

const DAY = 24 * 60 * 60 * 1000;
const USAGE = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
const meta = (id: string, updatedAt: number, extra: Partial<ThreadMeta> = {}): ThreadMeta => ({
  id,
  title: id,
  parentThreadId: null,
  agent: 'supervisor',
  createdAt: updatedAt,
  updatedAt,
  runCount: 1,
  status: 'ok',
  ...extra,
});

describe('threadsToPrune', () => {
  const threads = [
    meta('t_a', 10 * DAY),
    meta('t_b', 9 * DAY),
    meta('t_c', 8 * DAY, { status: 'running' }),
    meta('t_d', 7 * DAY),
    meta('c_x', 1, { parentThreadId: 't_d' }),
  ];
  it('keeps everything by default', () => {
    expect(threadsToPrune(threads, {}, 11 * DAY)).toEqual([]);
  });
  it('lets the oldest top-level threads past maxThreads go, oldest first; a working one counts but stays', () => {
    expect(threadsToPrune(threads, { maxThreads: 2 }, 11 * DAY).map((t) => t.id)).toEqual(['t_d']);
    expect(threadsToPrune(threads, { maxThreads: 1 }, 11 * DAY).map((t) => t.id)).toEqual(['t_d', 't_b']);
  });
  it('lets threads not updated for maxAgeDays go, and applies both limits together', () => {
    expect(threadsToPrune(threads, { maxAgeDays: 1.5 }, 11 * DAY).map((t) => t.id)).toEqual(['t_d', 't_b']);
    expect(threadsToPrune(threads, { maxAgeDays: 30, maxThreads: 3 }, 11 * DAY).map((t) => t.id)).toEqual(['t_d']);
  });
});

describe('ThreadPruner over the JSONL store', () => {
  let dir: string;
  let now = 0;
  const clock = { now: () => now };
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'subagents-retention-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  /** A finished conversation at `at`, with one child thread. */
  async function conversation(store: JsonlThreadStore, id: string, at: number, keepOpen = false): Promise<void> {
    now = at;
    const child = `c_${id}`;
    await store.open({ id, title: id, parentThreadId: null, agent: 'supervisor' });
    await store.open({ id: child, title: 'child', parentThreadId: id, agent: 'explore' });
    const base = { v: 1 as const, ts: at };
    store.append({
      ...base,
      kind: 'run.started',
      threadId: id,
      runId: `r_${id}`,
      parentRunId: null,
      parentThreadId: null,
      agent: 'supervisor',
      agentPath: ['supervisor'],
      depth: 0,
      task: id,
      model: 'm',
    });
    store.append({
      ...base,
      kind: 'run.started',
      threadId: child,
      runId: `r_${child}`,
      parentRunId: `r_${id}`,
      parentThreadId: id,
      agent: 'explore',
      agentPath: ['supervisor', 'explore'],
      depth: 1,
      task: 't',
      model: 'm',
    });
    store.append({
      ...base,
      kind: 'run.finished',
      threadId: child,
      runId: `r_${child}`,
      status: 'ok',
      output: 'x',
      usage: USAGE,
      totalUsage: USAGE,
      durationMs: 1,
    });
    await store.close(child);
    if (keepOpen) return;
    store.append({
      ...base,
      kind: 'run.finished',
      threadId: id,
      runId: `r_${id}`,
      status: 'ok',
      output: 'y',
      usage: USAGE,
      totalUsage: USAGE,
      durationMs: 1,
    });
    await store.close(id);
  }

  const files = async () => (await readdir(dir)).filter((f) => f.endsWith('.jsonl')).sort();

  it('deletes the oldest conversations with their child threads, never one that works here or in another window', async () => {
    const store = new JsonlThreadStore({ dir, clock, indexDelayMs: 0 });
    const other = new JsonlThreadStore({ dir, clock, indexDelayMs: 0 });
    await conversation(store, 't_1', 1 * DAY);
    await conversation(store, 't_2', 2 * DAY, true); // its run still works in this process
    await conversation(store, 't_3', 3 * DAY);
    await conversation(other, 't_4', 4 * DAY, true); // works in "another window" (another store, its own lease)
    await conversation(store, 't_5', 5 * DAY);
    await conversation(store, 't_6', 6 * DAY);
    await store.flush();
    await other.flush();
    let retention: ThreadRetention = { maxThreads: 2 };
    const pruner = new ThreadPruner({ store, retention: () => retention, isBusy: () => false, clock, logger: silentLogger });
    expect(await pruner.prune()).toBe(2);
    expect(await files()).toEqual([
      'c_t_2.jsonl',
      'c_t_4.jsonl',
      'c_t_5.jsonl',
      'c_t_6.jsonl',
      't_2.jsonl',
      't_4.jsonl',
      't_5.jsonl',
      't_6.jsonl',
    ]);
    expect((await store.list()).map((t) => t.id).sort()).toEqual(['c_t_2', 'c_t_4', 'c_t_5', 'c_t_6', 't_2', 't_4', 't_5', 't_6']);
    // The working ones are left for a later pass: once they end, they go.
    const end = (threadId: string, ts: number) => ({
      v: 1 as const,
      ts,
      kind: 'run.finished' as const,
      threadId,
      runId: `r_${threadId}`,
      status: 'ok' as const,
      output: 'y',
      usage: USAGE,
      totalUsage: USAGE,
      durationMs: 1,
    });
    store.append(end('t_2', 2 * DAY));
    await store.close('t_2');
    other.append(end('t_4', 4 * DAY));
    await other.closeAll();
    expect(await pruner.prune()).toBe(2);
    expect(await files()).toEqual(['c_t_5.jsonl', 'c_t_6.jsonl', 't_5.jsonl', 't_6.jsonl']);
    // By age: not updated for a day, as of day 6.5.
    now = 6.5 * DAY;
    retention = { maxAgeDays: 1 };
    expect(await pruner.prune()).toBe(1);
    expect(await files()).toEqual(['c_t_6.jsonl', 't_6.jsonl']);
    store.dispose();
    other.dispose();
  });
});

describe('retention takes the snapshots of the threads it deletes', () => {
  it('removes what only deleted threads referred to; what a kept thread refers to, and a snapshot just written, stay', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'subagents-retention-snapshots-'));
    let now = 1 * DAY;
    const clock = { now: () => now };
    const store = new JsonlThreadStore({ dir, clock, indexDelayMs: 0 });
    const snapshots = threadSnapshots({ threadsDir: dir, store, maxMB: () => 200, logger: silentLogger });
    const oldOnly = await snapshots.put('only the old thread\n');
    const shared = await snapshots.put('both threads\n');
    const keptOnly = await snapshots.put('only the new thread\n');
    // Written long ago, as the old thread's run did; a snapshot written a moment ago may still be waiting for its event.
    const objects = join(dir, 'snapshots', 'objects');
    const longAgo = new Date(Date.now() - 3_600_000);
    for (const blob of await listBlobs(objects)) await utimes(blob.path, longAgo, longAgo);
    const justWritten = await snapshots.put('a command is running\n');
    const changed = (threadId: string, beforeHash: string, afterHash: string, ts: number) => ({
      v: 1 as const,
      ts,
      kind: 'file.changed' as const,
      threadId,
      runId: `r_${threadId}`,
      path: 'a.txt',
      beforeHash,
      afterHash,
      added: 1,
      removed: 1,
      toolCallId: 'c',
      attribution: 'exact' as const,
    });
    for (const [id, hashes] of [
      ['t_old', [oldOnly, shared]],
      ['t_new', [shared, keptOnly]],
    ] as const) {
      now += DAY;
      await store.open({ id, title: id, parentThreadId: null, agent: 'supervisor' });
      store.append({
        v: 1,
        ts: now,
        kind: 'run.started',
        threadId: id,
        runId: `r_${id}`,
        parentRunId: null,
        parentThreadId: null,
        agent: 'supervisor',
        agentPath: ['supervisor'],
        depth: 0,
        task: id,
        model: 'm',
      });
      store.append(changed(id, hashes[0], hashes[1], now));
      store.append({
        v: 1,
        ts: now,
        kind: 'run.finished',
        threadId: id,
        runId: `r_${id}`,
        status: 'ok',
        output: 'y',
        usage: USAGE,
        totalUsage: USAGE,
        durationMs: 1,
      });
      await store.close(id);
    }
    await store.flush();
    const pruner = new ThreadPruner({
      store,
      retention: () => ({ maxThreads: 1 }),
      isBusy: () => false,
      clock,
      logger: silentLogger,
      afterDelete: () => snapshots.dropUnreferenced(),
    });
    expect(await pruner.prune()).toBe(1);
    expect((await listBlobs(objects)).map((b) => b.hash).sort()).toEqual([shared, keptOnly, justWritten].sort());
    store.dispose();
    await rm(dir, { recursive: true, force: true });
  });
});

describe('the engine applies subagents.threads.retention after each turn', () => {
  it('keeps only the newest conversation with maxThreads 1', async () => {
    const { engine, store } = makeEngine(
      { agents: { supervisor: [{ text: 'one' }, { text: 'two' }] } },
      { settings: { 'threads.retention': { maxThreads: 1 } } },
    );
    const first = await engine.send({ prompt: 'first' });
    await first.done;
    await engine.whenQuiet(first.threadId);
    const second = await engine.send({ prompt: 'second' });
    await second.done;
    await engine.whenQuiet(second.threadId);
    await engine.pruneThreads();
    expect((await store.list()).map((t) => t.id)).toEqual([second.threadId]);
  });
});
