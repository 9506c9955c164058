import type { ThreadRetention } from '../../config/settings/engineSettings';
import type { Clock, Logger } from '../../ports';
import { ThreadBusyError } from '../threads/threadLeases';
import type { ThreadStore } from '../threads/threadStore';
import { threadsToPrune } from './threadsToPrune';

export interface ThreadPrunerDeps {
  store: Pick<ThreadStore, 'list' | 'delete'>;
  /** Read at each pass, so a changed setting applies from the next one. */
  retention: () => ThreadRetention;
  /** A run of the thread (or its child threads) works in this process, or a request on it is starting. */
  isBusy: (threadId: string) => boolean;
  clock: Clock;
  logger: Logger;
  /** After a pass deleted threads: their snapshots go too (those no kept thread refers to). */
  afterDelete?: () => Promise<void>;
}

/**
 * Applies `subagents.threads.retention`: at start-up and after each turn, lightly (the index
 * alone is read; one pass at a time, and a request for another while one runs is one more pass).
 * Deletes each thread with its child threads, children first (the store's delete), then the
 * snapshots only they referred to; a thread that works here or in another window (its lease) is
 * left for a later pass.
 */
export class ThreadPruner {
  private running: Promise<number> | undefined;
  private again = false;

  constructor(private readonly deps: ThreadPrunerDeps) {}

  /** Starts a pass (or asks for one more after the current one); resolves with how many threads the pass deleted. */
  prune(): Promise<number> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.loop().finally(() => (this.running = undefined));
    return this.running;
  }

  private async loop(): Promise<number> {
    let deleted = 0;
    do {
      this.again = false;
      deleted += await this.pass().catch((error: unknown) => {
        this.deps.logger.warn(`Could not apply subagents.threads.retention: ${(error as Error).message}`);
        return 0;
      });
    } while (this.again);
    return deleted;
  }

  private async pass(): Promise<number> {
    const retention = this.deps.retention();
    if (retention.maxThreads === undefined && retention.maxAgeDays === undefined) return 0;
    const doomed = threadsToPrune(await this.deps.store.list(), retention, this.deps.clock.now());
    let deleted = 0;
    for (const meta of doomed) {
      if (this.deps.isBusy(meta.id)) continue;
      try {
        if (await this.deps.store.delete(meta.id, { ifIdle: true })) deleted++;
      } catch (error) {
        if (!(error instanceof ThreadBusyError)) throw error;
      }
    }
    if (deleted > 0) await this.deps.afterDelete?.();
    if (deleted > 0)
      this.deps.logger.info(
        `subagents.threads.retention: deleted ${deleted} old conversation${deleted === 1 ? '' : 's'} with their subagents' threads.`,
      );
    return deleted;
  }
}
