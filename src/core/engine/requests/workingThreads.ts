import type { Engine } from '../engine';

/** The engine as a shutdown needs it. */
export type StoppableEngine = Pick<Engine, 'onEvent' | 'isBusy' | 'whenQuiet' | 'cancelAll'>;

/**
 * The top-level threads that have work in this process, from the engine's events, so a shutdown
 * can wait for exactly those: a thread joins when a top-level run starts in it and leaves once it
 * is quiet again (background children included).
 */
export class WorkingThreads {
  private readonly threads = new Set<string>();
  private readonly unsubscribe: () => void;

  constructor(private readonly engine: StoppableEngine) {
    this.unsubscribe = engine.onEvent((e) => {
      if (e.kind === 'run.started') {
        if (e.parentRunId === null) this.threads.add(e.threadId);
      } else if (e.kind === 'run.finished' && this.threads.has(e.threadId)) {
        void engine.whenQuiet(e.threadId).then(
          () => {
            if (!engine.isBusy(e.threadId)) this.threads.delete(e.threadId);
          },
          () => undefined,
        );
      }
    });
  }

  list(): string[] {
    return [...this.threads];
  }

  /**
   * Cancels every run and waits until each working thread is quiet, its runs' ends written as
   * `cancelled`. Resolves true when all ended within `timeoutMs`; false leaves the rest to be
   * closed as `interrupted` when their thread is next loaded (the honest word for a cut-off run).
   */
  async stopAll(timeoutMs: number): Promise<boolean> {
    this.engine.cancelAll('closing');
    const quiet = Promise.all(this.list().map((t) => this.engine.whenQuiet(t))).then(() => true);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
      timer.unref?.();
    });
    try {
      return await Promise.race([quiet, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  dispose(): void {
    this.unsubscribe();
  }
}

/**
 * The end of a window or a process, in order: queued prompts are dropped, every run is cancelled
 * and awaited (at most `waitMs`), and the store is flushed, so the runs read `cancelled` next time.
 */
export async function shutdownRequests(
  parts: { queue: { clear(): void }; working: WorkingThreads; store: { flush(): Promise<void> }; logger?: { warn(message: string): void } },
  waitMs: number,
): Promise<void> {
  parts.queue.clear();
  if (!(await parts.working.stopAll(waitMs)))
    parts.logger?.warn('Some runs did not end in time; they will read as interrupted when their thread is next opened.');
  await parts.store.flush();
}
