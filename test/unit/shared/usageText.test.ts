import { describe, expect, it } from 'vitest';
import type { Usage } from '../../../src/shared/events';
import { ZERO_USAGE, addUsage, formatStats, formatUsage } from '../../../src/shared/usage';

// Issue 43 items 4 and 5: cached tokens and costs add up, and read as one short line.

const plain = (input: number, output: number): Usage => ({ inputTokens: input, outputTokens: output, totalTokens: input + output });

describe('addUsage', () => {
  it('adds cache reads and writes, and leaves them out when neither side had any (old threads read as before)', () => {
    expect(addUsage(plain(10, 5), plain(3, 2))).toEqual(plain(13, 7));
    expect(addUsage({ ...plain(100, 5), cacheReadTokens: 80 }, { ...plain(50, 1), cacheReadTokens: 40, cacheWriteTokens: 10 })).toEqual({
      ...plain(150, 6),
      cacheReadTokens: 120,
      cacheWriteTokens: 10,
    });
  });

  it('adds known costs and counts the tokens no price covered, never pricing them', () => {
    const priced = { ...plain(1000, 100), costUsd: 0.01 };
    const unpriced = plain(500, 50);
    expect(addUsage(priced, unpriced)).toEqual({ ...plain(1500, 150), costUsd: 0.01, unpricedTokens: 550 });
    expect(addUsage(addUsage(priced, unpriced), unpriced)).toMatchObject({ costUsd: 0.01, unpricedTokens: 1100 });
    // A run that used no tokens costs nothing: it leaves the total complete.
    expect(addUsage(priced, ZERO_USAGE)).toEqual(priced);
    // With no price anywhere there is nothing to say about prices.
    expect(addUsage(unpriced, unpriced)).toEqual(plain(1000, 100));
  });
});

describe('formatUsage', () => {
  it('reads as before without cache or price', () => {
    expect(formatStats(1500, plain(300, 60))).toBe('1.5s · 300 in / 60 out');
  });

  it('says how many input tokens the cache served and what it all cost', () => {
    const usage: Usage = { ...plain(12_100, 310), cacheReadTokens: 9_800, costUsd: 0.0421 };
    expect(formatUsage(usage)).toBe('12.1k in, 9.8k cached / 310 out · $0.042');
    expect(formatUsage({ ...usage, cacheWriteTokens: 2_000, costUsd: 1.5 })).toBe('12.1k in, 9.8k cached, 2.0k to cache / 310 out · $1.50');
  });

  it('shows a cost that leaves unpriced tokens out as the least it was', () => {
    expect(formatUsage({ ...plain(2_000_000, 0), costUsd: 0.0031, unpricedTokens: 400 })).toBe('2.0M in / 0 out · ≥ $0.0031');
    expect(formatUsage({ ...plain(0, 0), costUsd: 0 })).toBe('0 in / 0 out · $0');
  });
});

describe('exact counts', () => {
  it('write every count in full for the run tree as text', () => {
    expect(formatStats(200, { ...plain(12_100, 310), cacheReadTokens: 9_800 }, true)).toBe('200ms · 12100 in, 9800 cached / 310 out');
  });
});
