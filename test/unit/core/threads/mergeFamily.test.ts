import { describe, expect, it } from 'vitest';
import { mergeByTime } from '../../../../src/core/storage/threads/mergeFamily';
import type { RunEvent } from '../../../../src/shared/events';

const ev = (threadId: string, seq: number, ts: number): RunEvent => ({ v: 1, kind: 'text.delta', threadId, runId: 'r', seq, ts, text: '' });
const show = (events: RunEvent[]) => events.map((e) => `${e.threadId}${e.seq}@${e.ts}`);

describe('mergeByTime', () => {
  it('orders by time with earlier lists first on ties', () => {
    const merged = mergeByTime([
      [ev('p', 1, 1), ev('p', 2, 5), ev('p', 3, 5)],
      [ev('c', 1, 5), ev('c', 2, 6)],
      [ev('g', 1, 0), ev('g', 2, 5)],
    ]);
    expect(show(merged)).toEqual(['g1@0', 'p1@1', 'p2@5', 'p3@5', 'c1@5', 'g2@5', 'c2@6']);
  });

  it('never reorders a list, even when its clock went backwards', () => {
    const merged = mergeByTime([[ev('p', 1, 10), ev('p', 2, 3)], [ev('c', 1, 5)]]);
    expect(show(merged)).toEqual(['c1@5', 'p1@10', 'p2@3']);
  });

  it('handles empty and single lists', () => {
    expect(mergeByTime([])).toEqual([]);
    expect(show(mergeByTime([[], [ev('a', 1, 1)], []]))).toEqual(['a1@1']);
  });
});
