import type { Engine } from '../../core/engine/engine';
import type { LoadedThread, ThreadStore } from '../../core/storage/threads/threadStore';
import type { RunEvent } from '../../shared/events';
import { EventBatcher } from './eventBatcher';

export interface ThreadFeedDeps {
  engine: Pick<Engine, 'onEvent'>;
  store: Pick<ThreadStore, 'getFamily'>;
  /** Receives the followed thread's live events in batches. */
  flush(threadId: string, events: RunEvent[]): void;
  batchIntervalMs?: number;
}

/**
 * The live events of the thread the panel shows, and of its child threads. Subscribed before a
 * snapshot loads, so nothing can fall between the two: what arrives during the load is held, and
 * after the snapshot only what it did not contain goes on (by seq, per thread). The webview's
 * reducer skips repeats too, so an overlap anywhere else costs nothing either.
 */
export class ThreadFeed {
  private threadId: string | undefined;
  /** The followed thread and its child threads: the events the webview folds. */
  private family = new Set<string>();
  /** While a snapshot loads: every event that arrived since the load began. */
  private held: RunEvent[] | undefined;
  private loads = 0;
  private readonly batcher: EventBatcher;
  private readonly unsubscribe: () => void;

  constructor(private readonly deps: ThreadFeedDeps) {
    this.batcher = new EventBatcher({
      intervalMs: deps.batchIntervalMs,
      flush: (events) => {
        if (this.threadId) deps.flush(this.threadId, events);
      },
    });
    this.unsubscribe = deps.engine.onEvent((e) => (this.held ? this.held.push(e) : this.accept(e)));
  }

  get current(): string | undefined {
    return this.threadId;
  }

  /** Follows a thread that has no events yet (a new conversation's first message). */
  follow(threadId: string): void {
    this.loads++;
    this.held = undefined;
    this.batcher.clear();
    this.threadId = threadId;
    this.family = new Set([threadId]);
  }

  /**
   * Loads the thread's family and follows it. `show` gets the snapshot (undefined: no such thread,
   * or no thread asked for) synchronously, before any live event after it is handed on: post the
   * snapshot there. Resolves false when a later load replaced this one (its snapshot is not shown).
   */
  async load(threadId: string | undefined, show: (loaded: LoadedThread | undefined) => void): Promise<boolean> {
    const load = ++this.loads;
    this.batcher.clear();
    this.threadId = threadId;
    this.family = new Set(threadId ? [threadId] : []);
    this.held = threadId ? [] : undefined;
    let loaded: LoadedThread | undefined;
    try {
      loaded = threadId ? await this.deps.store.getFamily(threadId) : undefined;
    } catch (error) {
      if (load === this.loads) this.held = undefined;
      throw error;
    }
    if (load !== this.loads) return false;
    const held = this.held ?? [];
    this.held = undefined;
    if (!loaded) {
      this.threadId = undefined;
      this.family = new Set();
      show(undefined);
      return true;
    }
    const seen = new Map<string, number>();
    for (const e of loaded.events) {
      this.family.add(e.threadId);
      seen.set(e.threadId, Math.max(seen.get(e.threadId) ?? -Infinity, e.seq));
    }
    show(loaded);
    for (const e of held) if (e.seq > (seen.get(e.threadId) ?? -Infinity)) this.accept(e);
    return true;
  }

  /** Hands over what is batched now (e.g. when a run ends, so its end shows without delay). */
  flushNow(): void {
    this.batcher.flushNow();
  }

  /** Drops what is batched (the webview is gone; it asks for a snapshot when it is back). */
  clear(): void {
    this.batcher.clear();
  }

  dispose(): void {
    this.unsubscribe();
    this.batcher.dispose();
  }

  private accept(event: RunEvent): void {
    if (event.kind === 'run.started' && event.parentThreadId && this.family.has(event.parentThreadId)) this.family.add(event.threadId);
    if (this.family.has(event.threadId)) this.batcher.push(event);
  }
}
