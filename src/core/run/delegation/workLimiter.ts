import pLimit, { type LimitFunction } from 'p-limit';
import { errorText } from '../../../shared/errorText';
import type { Release, WorkSlot } from '../agent/workSlot';
import type { Logger } from '../../ports';

/**
 * subagents.maxConcurrency for one Engine: at most that many subagents work at once, across every
 * request and thread of the engine. A subagent works while one of its model calls streams or one
 * of its own tool calls runs; it gives its place back in between, and while it waits for its own
 * children, so a parent never holds a place its child needs (nested delegation cannot deadlock).
 * Waiting runs get places in the order they asked (p-limit's queue).
 */
export class WorkLimiter {
  private readonly limit: LimitFunction;

  constructor(
    concurrency: number,
    private readonly logger: Logger,
  ) {
    this.limit = pLimit(places(concurrency));
  }

  /** Settings are read per request; a new limit applies to the places handed out from now on. */
  set concurrency(value: number) {
    if (this.limit.concurrency !== places(value)) this.limit.concurrency = places(value);
  }

  /** The slot of one run: holding it twice at once takes one place. */
  slotFor(): RunSlot {
    return new RunSlot(this);
  }

  /** Resolves with a place once one is free (it never rejects); the place is held until the release is called. */
  acquire(): Promise<Release> {
    return new Promise<Release>((granted) => {
      this.limit(() => new Promise<void>((release) => granted(once(release)))).catch((error: unknown) =>
        this.logger.error(`The subagent limiter failed: ${errorText(error)}`),
      );
    });
  }
}

/**
 * One run's share of the limiter. Nested holds (a tool call during a streaming step, parallel
 * tool calls) count once; the place goes back when the last hold is released, or when the run
 * ends, whatever a tool that ignored its abort is still doing.
 */
export class RunSlot implements WorkSlot {
  private holders = 0;
  private place: Promise<Release> | undefined;
  private closed = false;

  constructor(private readonly limiter: WorkLimiter) {}

  async hold(signal?: AbortSignal): Promise<Release> {
    if (this.closed) return () => {};
    signal?.throwIfAborted();
    this.holders++;
    this.place ??= this.limiter.acquire();
    try {
      await untilGranted(this.place, signal);
    } catch (error) {
      this.drop();
      throw error;
    }
    return once(() => this.drop());
  }

  /** The run has ended: its place goes back now. */
  close(): void {
    this.closed = true;
    this.holders = 0;
    this.giveBack();
  }

  private drop(): void {
    if (this.holders === 0) return;
    this.holders--;
    if (this.holders === 0) this.giveBack();
  }

  private giveBack(): void {
    const place = this.place;
    this.place = undefined;
    // A place still queued is given back the moment it is granted. (acquire() never rejects.)
    void place?.then((release) => release());
  }
}

/** Waits for the place, or rejects with the signal's reason when the run is stopped first. */
function untilGranted(place: Promise<Release>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return place.then(() => undefined);
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    void place.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}

function once(fn: () => void): Release {
  let called = false;
  return () => {
    if (!called) fn();
    called = true;
  };
}

/** p-limit wants a whole number of at least 1; the settings reader already checks the range. */
function places(value: number): number {
  return Math.max(1, Math.floor(value));
}
