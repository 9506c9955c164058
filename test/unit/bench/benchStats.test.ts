import { describe, expect, it } from 'vitest';
import { roundOrder } from '../../../bench/measure';
import { medianInterval, roundRatio } from '../../../bench/stats';

// The benches' statistics that the issue notes read their verdicts from: the interval around a
// median ratio must hold the true median about 95 % of the time, and the rounds' order must vary.

/** A seeded source of uniform numbers in [0, 1) (mulberry32), so the check is the same every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('medianInterval', () => {
  it('takes the 22nd and 39th of 60 samples, whatever their order', () => {
    const samples = Array.from({ length: 60 }, (_, i) => 60 - i);
    expect(medianInterval(samples)).toEqual({ low: 22, high: 39 });
  });

  it('holds the true median of a skewed distribution in about 95 % of samples of 60', () => {
    const random = seeded(15);
    // Exponential with rate 1: its median is ln 2; the shape of a bench's long right tail.
    const draw = () => -Math.log(1 - random());
    let held = 0;
    const trials = 2000;
    for (let t = 0; t < trials; t++) {
      const { low, high } = medianInterval(Array.from({ length: 60 }, draw));
      if (low <= Math.LN2 && Math.LN2 <= high) held++;
    }
    // The binomial coverage of ranks 22..39 is 96.6 %; a narrower interval (ranks a few closer) falls under 93 %.
    expect(held / trials).toBeGreaterThan(0.94);
    expect(held / trials).toBeLessThan(0.985);
  });

  it('is the whole sample when the sample is too small to say more', () => {
    expect(medianInterval([3, 1, 2])).toEqual({ low: 1, high: 3 });
  });
});

describe('roundRatio', () => {
  it("is the median of each round's own ratio, not the ratio of the medians", () => {
    // The floor drifts between 10 and 30 ms; the rounds' own ratios are 1.0, 1.2, 1.1, 1.1 and 1.3.
    const floor = [30, 10, 10, 30, 20];
    const ours = [30, 12, 11, 33, 26];
    // The ratio of the medians would be 26 / 20 = 1.30.
    expect(roundRatio(ours, floor)).toBe('1.10 x (1.00–1.30)');
  });
});

describe('roundOrder', () => {
  it('is a permutation of the columns, and every column comes right after every other one over the rounds', () => {
    const columns = 7;
    const follows = new Set<string>();
    for (let round = 0; round < 500; round++) {
      const order = roundOrder(columns);
      expect([...order].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6]);
      for (let i = 1; i < order.length; i++) follows.add(`${order[i - 1]}>${order[i]}`);
    }
    // 42 ordered pairs; in a fixed order only 6 would ever occur.
    expect(follows.size).toBe(columns * (columns - 1));
  });
});
