import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EventBatcher } from '../../../src/host/panel/eventBatcher';
import type { RunEvent } from '../../../src/shared/events';
import { EMPTY_TREE, foldRunEvents } from '../../../src/shared/runTree';

// Time is fake here: the batcher's clock and its timers both run on vitest's fake timers, so the
// interval is checked exactly, not against the machine's load.

const seqs = new Map<string, number>();
/** Each run in its own thread unless told otherwise, seq rising per thread as the store stamps it. */
const base = (runId: string, threadId = `t-${runId}`) => {
  const seq = (seqs.get(threadId) ?? 0) + 1;
  seqs.set(threadId, seq);
  return { v: 1 as const, threadId, runId, seq, ts: seq };
};
const started = (runId: string, threadId?: string): RunEvent => ({
  ...base(runId, threadId),
  kind: 'run.started',
  parentRunId: null,
  agent: runId,
  agentPath: [runId],
  depth: 0,
  task: 'x',
  model: 'm',
});
const delta = (runId: string, text: string, threadId?: string): RunEvent => ({ ...base(runId, threadId), kind: 'text.delta', text });
const tool = (runId: string, threadId?: string): RunEvent => ({
  ...base(runId, threadId),
  kind: 'tool.started',
  toolCallId: `c${Math.random()}`,
  tool: 'read_file',
  input: {},
});

function collect(intervalMs = 16) {
  const batches: RunEvent[][] = [];
  const flushedAt: number[] = [];
  const batcher = new EventBatcher({
    intervalMs,
    now: () => Date.now(),
    flush: (b) => {
      batches.push(b);
      flushedAt.push(Date.now());
    },
  });
  return { batcher, batches, flushedAt };
}

const texts = (batch: readonly RunEvent[]) => batch.flatMap((e) => (e.kind === 'text.delta' ? [e.text] : []));

describe('EventBatcher', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    seqs.clear();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('merges adjacent deltas of a run and folds to the same tree as the raw events', () => {
    const { batcher, batches } = collect();
    const raw = [
      started('a'),
      started('b'),
      delta('a', 'he'),
      delta('b', 'x'),
      delta('a', 'llo'),
      tool('a'),
      delta('a', '!'),
      delta('b', 'y'),
    ];
    const before = JSON.stringify(raw);
    raw.forEach((e) => batcher.push(e));
    vi.runOnlyPendingTimers();
    // The events are shared with the store and other listeners: merging must not change them.
    expect(JSON.stringify(raw)).toBe(before);
    expect(batches).toHaveLength(1);
    const batch = batches[0]!;
    expect(texts(batch)).toEqual(['hello', 'xy', '!']);
    const a = foldRunEvents(EMPTY_TREE, raw);
    const b = foldRunEvents(EMPTY_TREE, batch);
    expect(b.runs).toEqual(a.runs);
    expect(b.lastSeq).toEqual(a.lastSeq);
  });

  it('never merges across another event of the same thread, so the merged seq covers exactly what it replaces', () => {
    const { batcher, batches } = collect();
    // Two runs writing into one thread: each delta's neighbour in the thread is the other run's.
    const raw = [
      started('a', 't'),
      started('b', 't'),
      delta('a', '1', 't'),
      delta('b', '2', 't'),
      delta('a', '3', 't'),
      delta('a', '4', 't'),
    ];
    raw.forEach((e) => batcher.push(e));
    vi.runOnlyPendingTimers();
    const batch = batches[0]!;
    expect(texts(batch)).toEqual(['1', '2', '34']);
    // seq still rises through the batch, so the reducer's repeat check drops nothing.
    const seqsInBatch = batch.map((e) => e.seq);
    expect(seqsInBatch).toEqual([...seqsInBatch].sort((x, y) => x - y));
    expect(foldRunEvents(EMPTY_TREE, batch).runs).toEqual(foldRunEvents(EMPTY_TREE, raw).runs);
  });

  it('sends at most one message per interval under a sustained event rate', () => {
    const interval = 40;
    const { batcher, batches, flushedAt } = collect(interval);
    batcher.push(started('a'));
    // Ten events a millisecond for two seconds: 20,000 events.
    for (let ms = 0; ms < 2000; ms++) {
      for (let i = 0; i < 10; i++) batcher.push(i % 5 === 0 ? tool('a') : delta('a', 'x'));
      vi.advanceTimersByTime(1);
    }
    vi.runOnlyPendingTimers();
    const gaps = flushedAt.slice(1).map((t, i) => t - flushedAt[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(interval);
    // Close to the ceiling, too: a flush follows about one interval after the previous one.
    expect(batches.length).toBeGreaterThanOrEqual(2000 / (interval + 2));
    expect(batches.length).toBeLessThanOrEqual(2000 / interval + 1);
    expect(batches.flat().filter((e) => e.kind === 'tool.started')).toHaveLength(4000);
  });

  it('flushNow hands over at once and clear drops what is pending', () => {
    const { batcher, batches } = collect(1000);
    batcher.push(started('a'));
    batcher.flushNow();
    expect(batches).toHaveLength(1);
    batcher.push(delta('a', 'z'));
    batcher.clear();
    batcher.flushNow();
    vi.runAllTimers();
    expect(batches).toHaveLength(1);
  });
});
