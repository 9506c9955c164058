import { describe, expect, it } from 'vitest';
import { EventBatcher } from '../../../src/host/eventBatcher';
import type { RunEvent } from '../../../src/shared/events';
import { EMPTY_TREE, foldRunEvents } from '../../../src/shared/runTree';

let seq = 0;
const base = (runId: string) => ({ v: 1 as const, threadId: 't', runId, seq: seq++, ts: seq });
const started = (runId: string): RunEvent => ({ ...base(runId), kind: 'run.started', parentRunId: null, agent: runId, agentPath: [runId], depth: 0, task: 'x', model: 'm' });
const delta = (runId: string, text: string): RunEvent => ({ ...base(runId), kind: 'text.delta', text });
const tool = (runId: string): RunEvent => ({ ...base(runId), kind: 'tool.started', toolCallId: `c${seq}`, tool: 'read_file', input: {} });

function collect(intervalMs = 16) {
  const batches: RunEvent[][] = [];
  let resolveNext: (() => void) | undefined;
  const batcher = new EventBatcher({
    intervalMs,
    flush: (b) => {
      batches.push(b);
      resolveNext?.();
    },
  });
  const nextBatch = () => new Promise<void>((r) => (resolveNext = r));
  return { batcher, batches, nextBatch };
}

describe('EventBatcher', () => {
  it('merges adjacent deltas of a run and folds to the same tree as the raw events', async () => {
    const { batcher, batches, nextBatch } = collect();
    const raw = [started('a'), started('b'), delta('a', 'he'), delta('b', 'x'), delta('a', 'llo'), tool('a'), delta('a', '!'), delta('b', 'y')];
    const before = JSON.stringify(raw);
    const waiting = nextBatch();
    raw.forEach((e) => batcher.push(e));
    await waiting;
    // The events are shared with the store and other listeners: merging must not change them.
    expect(JSON.stringify(raw)).toBe(before);
    expect(batches).toHaveLength(1);
    const batch = batches[0]!;
    expect(batch.filter((e) => e.kind === 'text.delta').map((e) => e.kind === 'text.delta' && e.text)).toEqual(['hello', 'xy', '!']);
    const a = foldRunEvents(EMPTY_TREE, raw);
    const b = foldRunEvents(EMPTY_TREE, batch);
    expect(b.runs['a']!.text).toBe(a.runs['a']!.text);
    expect(b.runs['b']!.text).toBe(a.runs['b']!.text);
    expect(b.runs['a']!.toolCalls).toEqual(a.runs['a']!.toolCalls);
    expect(b.lastSeq).toEqual(a.lastSeq);
  });

  it('sends at most one message per interval whatever the event rate', async () => {
    const { batcher, batches, nextBatch } = collect(40);
    batcher.push(started('a'));
    await nextBatch();
    for (let i = 0; i < 10_000; i++) batcher.push(delta('a', 'x'));
    await nextBatch();
    expect(batches).toHaveLength(2);
    expect(batches[1]).toHaveLength(1);
    // The second flush waited for the interval after the first one.
    batcher.push(delta('a', 'y'));
    const before = Date.now();
    await nextBatch();
    expect(Date.now() - before).toBeGreaterThanOrEqual(20);
  });

  it('flushNow hands over at once and clear drops what is pending', () => {
    const { batcher, batches } = collect(1000);
    batcher.push(started('a'));
    batcher.flushNow();
    expect(batches).toHaveLength(1);
    batcher.push(delta('a', 'z'));
    batcher.clear();
    batcher.flushNow();
    expect(batches).toHaveLength(1);
  });
});
