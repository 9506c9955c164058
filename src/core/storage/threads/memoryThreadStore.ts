import { newThreadEntry } from './newThreadEntry';
import type { RunEvent, UnsequencedRunEvent } from '../../../shared/events';
import { systemClock, type Clock } from '../../ports';
import { mergeByTime } from './mergeFamily';
import { noteRun } from './threadIndex';
import { ThreadBusyError } from './threadLeases';
import {
  ThreadExistsError,
  type ArchivedThread,
  type DeleteOptions,
  type LoadedFamily,
  type LoadedThread,
  type NewThreadMeta,
  type ThreadMeta,
  type ThreadStore,
} from './threadStore';

export interface MemoryThreadStoreOptions {
  clock?: Clock;
  /**
   * false: stamp and count events but keep none (the bench's retained-memory figure would
   * otherwise be the stored events themselves). Loads then return no events.
   */
  keepEvents?: boolean;
}

interface MemoryThread {
  meta: ThreadMeta;
  events: RunEvent[];
  nextSeq: number;
  /** Its runs still working. */
  open: Set<string>;
}

/**
 * A ThreadStore that keeps threads in memory and behaves like the JSONL store (the same contract
 * test runs against both): seq from 1 per thread, families merged by `mergeByTime` with parents
 * first, lists most recently updated first. For tests and the bench, where disk is not the point.
 */
export class MemoryThreadStore implements ThreadStore {
  private readonly threads = new Map<string, MemoryThread>();
  private readonly clock: Clock;
  private readonly keepEvents: boolean;

  constructor(options: MemoryThreadStoreOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.keepEvents = options.keepEvents ?? true;
  }

  async open(meta: NewThreadMeta): Promise<LoadedThread> {
    let thread = this.threads.get(meta.id);
    if (!thread) {
      thread = {
        meta: newThreadEntry(meta, this.clock.now()),
        events: [],
        nextSeq: 1,
        open: new Set(),
      };
      this.threads.set(meta.id, thread);
    }
    return loaded(thread);
  }

  append(event: UnsequencedRunEvent): RunEvent {
    const thread = this.threads.get(event.threadId);
    if (!thread) throw new Error(`Cannot append to thread "${event.threadId}": open() it first (or it was deleted).`);
    const stamped = { ...event, seq: thread.nextSeq++ } as RunEvent;
    if (this.keepEvents) thread.events.push(stamped);
    if (stamped.ts > thread.meta.updatedAt) thread.meta.updatedAt = stamped.ts;
    noteRun(thread.meta, stamped, thread.open);
    return stamped;
  }

  /** One process, nobody to share with: there is no lease to give back. */
  async close(): Promise<void> {}

  async flush(): Promise<void> {}

  async flushThreads(): Promise<void> {}

  async get(threadId: string): Promise<LoadedThread | undefined> {
    const thread = this.threads.get(threadId);
    return thread && loaded(thread);
  }

  async getFamily(threadId: string): Promise<LoadedFamily | undefined> {
    const root = this.threads.get(threadId);
    if (!root) return undefined;
    const ids = this.descendants(threadId);
    const family = ids.map((id) => this.threads.get(id)!.events);
    return {
      meta: { ...root.meta },
      threads: ids.map((id) => ({ ...this.threads.get(id)!.meta })),
      events: mergeByTime(family),
      warnings: [],
    };
  }

  async importThreads(threads: readonly ArchivedThread[]): Promise<void> {
    const taken = threads.map((t) => t.meta.id).filter((id) => this.threads.has(id));
    if (taken.length > 0) throw new ThreadExistsError(taken);
    for (const { meta, events } of threads) {
      const thread: MemoryThread = {
        meta: { ...meta },
        events: this.keepEvents ? [...events] : [],
        nextSeq: (events.at(-1)?.seq ?? 0) + 1,
        open: new Set(),
      };
      this.threads.set(meta.id, thread);
    }
  }

  async list(): Promise<ThreadMeta[]> {
    return [...this.threads.values()].map((t) => ({ ...t.meta })).sort((a, b) => b.updatedAt - a.updatedAt);
  }

  async rename(threadId: string, title: string): Promise<boolean> {
    const thread = this.threads.get(threadId);
    if (!thread) return false;
    thread.meta.title = title;
    thread.meta.renamedAt = this.clock.now();
    return true;
  }

  async delete(threadId: string, options: DeleteOptions = {}): Promise<boolean> {
    if (!this.threads.has(threadId)) return false;
    const working = this.descendants(threadId).find((id) => this.threads.get(id)!.open.size > 0);
    if (options.ifIdle && working) throw new ThreadBusyError(working);
    for (const id of this.descendants(threadId)) this.threads.delete(id);
    return true;
  }

  /** The thread and its descendants, parents before children, siblings in creation order. */
  private descendants(threadId: string): string[] {
    const out = [threadId];
    for (let i = 0; i < out.length; i++) {
      const kids = [...this.threads.values()]
        .filter((t) => t.meta.parentThreadId === out[i])
        .sort((a, b) => a.meta.createdAt - b.meta.createdAt);
      for (const kid of kids) if (!out.includes(kid.meta.id)) out.push(kid.meta.id);
    }
    return out;
  }
}

function loaded(thread: MemoryThread): LoadedThread {
  return { meta: { ...thread.meta }, events: [...thread.events], warnings: [] };
}
