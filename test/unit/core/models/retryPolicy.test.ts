import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY, retryDelay } from '../../../../src/core/models/retryPolicy';

describe('retryDelay', () => {
  it('doubles from one second, four times at most', () => {
    const middle = () => 0.5; // no jitter
    expect([1, 2, 3, 4].map((n) => retryDelay(DEFAULT_RETRY_POLICY, n, undefined, middle))).toEqual([1000, 2000, 4000, 8000]);
    expect(DEFAULT_RETRY_POLICY.maxRetries).toBe(4);
  });

  it('spreads each wait by at most 20 % either way', () => {
    expect(retryDelay(DEFAULT_RETRY_POLICY, 2, undefined, () => 0)).toBe(1600);
    expect(retryDelay(DEFAULT_RETRY_POLICY, 2, undefined, () => 1)).toBe(2400);
  });

  it("takes the server's retry-after as it is, up to a minute, and refuses longer waits", () => {
    expect(retryDelay(DEFAULT_RETRY_POLICY, 1, 12_345, () => 1)).toBe(12_345);
    expect(retryDelay(DEFAULT_RETRY_POLICY, 1, 0)).toBe(0);
    expect(retryDelay(DEFAULT_RETRY_POLICY, 1, 60_000)).toBe(60_000);
    expect(retryDelay(DEFAULT_RETRY_POLICY, 1, 60_001)).toBeUndefined();
  });
});
