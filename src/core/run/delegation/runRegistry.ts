import type { RunHandle } from './runHandle';

/** A thread taken by a request that has not started its run yet. */
export interface Reservation {
  readonly rootThreadId: string;
  /** Cancelled before its run existed: the run is stopped as soon as it starts. */
  readonly cancelled: boolean;
  /** The request started its run, or gave up: the reservation goes. */
  release(): void;
}

/**
 * The runs that are working now, and the threads reserved by requests about to start one: the
 * engine's one source of truth for busy and quiet.
 */
export class RunRegistry {
  private readonly active = new Map<string, RunHandle>();
  private readonly reservations = new Set<Reservation & { cancelled: boolean }>();
  private readonly idleWaiters = new Map<string, (() => void)[]>();

  /** Taken synchronously, before a request's first await: a second request on the thread sees it busy. */
  reserve(rootThreadId: string): Reservation {
    const reservation = {
      rootThreadId,
      cancelled: false,
      release: () => {
        if (this.reservations.delete(reservation)) this.settle(rootThreadId);
      },
    };
    this.reservations.add(reservation);
    return reservation;
  }

  /** Marks the family's reservations (all of them without a family) cancelled. */
  cancelReserved(rootThreadId?: string): void {
    for (const r of this.reservations) if (rootThreadId === undefined || r.rootThreadId === rootThreadId) r.cancelled = true;
  }

  add(run: RunHandle): void {
    this.active.set(run.runId, run);
  }

  remove(run: RunHandle): void {
    if (this.active.delete(run.runId)) this.settle(run.rootThreadId);
  }

  /** A run of the family is working, or a request is about to start one. */
  isBusy(rootThreadId: string): boolean {
    if (this.activeIn(rootThreadId).length > 0) return true;
    for (const r of this.reservations) if (r.rootThreadId === rootThreadId) return true;
    return false;
  }

  /** Active runs of a request family: the user's thread and every child thread under it. */
  activeIn(rootThreadId: string): RunHandle[] {
    return [...this.active.values()].filter((r) => r.rootThreadId === rootThreadId);
  }

  /** The active run working in exactly this thread, if any. */
  activeInThread(threadId: string): RunHandle | undefined {
    for (const r of this.active.values()) if (r.threadId === threadId) return r;
    return undefined;
  }

  /** The active run with this id, if it is working. */
  get(runId: string): RunHandle | undefined {
    return this.active.get(runId);
  }

  all(): RunHandle[] {
    return [...this.active.values()];
  }

  /** Resolves when no run of the family is active and no request is about to start one. */
  whenIdle(rootThreadId: string): Promise<void> {
    if (!this.isBusy(rootThreadId)) return Promise.resolve();
    return new Promise((resolve) => {
      const list = this.idleWaiters.get(rootThreadId) ?? [];
      list.push(resolve);
      this.idleWaiters.set(rootThreadId, list);
    });
  }

  private settle(rootThreadId: string): void {
    if (this.isBusy(rootThreadId)) return;
    const waiters = this.idleWaiters.get(rootThreadId) ?? [];
    this.idleWaiters.delete(rootThreadId);
    for (const resolve of waiters) resolve();
  }
}
