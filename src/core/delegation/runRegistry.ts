import type { RunHandle } from './runHandle';

/** The runs that are working now, by id; the engine's one source of truth for busy and quiet. */
export class RunRegistry {
  private readonly active = new Map<string, RunHandle>();
  private readonly idleWaiters = new Map<string, (() => void)[]>();

  add(run: RunHandle): void {
    this.active.set(run.runId, run);
  }

  remove(run: RunHandle): void {
    this.active.delete(run.runId);
    if (this.activeIn(run.rootThreadId).length > 0) return;
    const waiters = this.idleWaiters.get(run.rootThreadId) ?? [];
    this.idleWaiters.delete(run.rootThreadId);
    for (const resolve of waiters) resolve();
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

  all(): RunHandle[] {
    return [...this.active.values()];
  }

  /** Resolves when no run of the family is active. */
  whenIdle(rootThreadId: string): Promise<void> {
    if (this.activeIn(rootThreadId).length === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const list = this.idleWaiters.get(rootThreadId) ?? [];
      list.push(resolve);
      this.idleWaiters.set(rootThreadId, list);
    });
  }
}
