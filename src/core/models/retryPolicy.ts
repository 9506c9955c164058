/**
 * When to try a failed model call again. Exponential backoff with jitter (1 s, 2 s, 4 s, 8 s,
 * each ±20 %), at most 4 retries; a server's `retry-after` replaces the backoff for that wait, as
 * long as it asks for no more than a minute (longer, and we stop and say so rather than hang).
 * No retry starts once the call has been failing for `maxTotalMs`, attempts and waits together: a
 * provider that takes minutes to fail is not asked four more times.
 */
export interface RetryPolicy {
  maxRetries: number;
  /** The first backoff; each later one doubles. */
  baseDelayMs: number;
  /** The longest wait we accept, whether from backoff or from `retry-after`. */
  maxDelayMs: number;
  /** Backoff is spread by this fraction either way, so parallel runs do not retry in lockstep. */
  jitter: number;
  /** How long a call may go on failing, from its first attempt to the end of the next wait; the engine uses subagents.modelIdleTimeoutMs. */
  maxTotalMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 4, baseDelayMs: 1000, maxDelayMs: 60_000, jitter: 0.2, maxTotalMs: 300_000 };

/**
 * The wait before retry number `retry` (1-based), or undefined when the server asks for longer
 * than `maxDelayMs`. `random` is injectable so the jitter is testable.
 */
export function retryDelay(
  policy: RetryPolicy,
  retry: number,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number | undefined {
  if (retryAfterMs !== undefined) return retryAfterMs <= policy.maxDelayMs ? Math.ceil(retryAfterMs) : undefined;
  const backoff = policy.baseDelayMs * 2 ** (retry - 1);
  const spread = 1 + policy.jitter * (2 * random() - 1);
  return Math.min(policy.maxDelayMs, Math.round(backoff * spread));
}
