import type { RunEvent, UnsequencedRunEvent } from '../src/shared/events';
import type { LoadedThread, ThreadMeta, ThreadStore } from '../src/core/threads/threadStore';

/**
 * A ThreadStore in memory: the engine column without disk I/O, so it measures the engine alone.
 * With `keepEvents: false` it only counts (for the retained-memory figure, which would otherwise
 * be the stored events themselves).
 */
export class MemoryThreadStore implements ThreadStore {
  private readonly threads = new Map<string, { meta: ThreadMeta; events: RunEvent[]; count: number }>();

  constructor(private readonly keepEvents = true) {}

  async open(meta: Pick<ThreadMeta, 'id' | 'title' | 'parentThreadId' | 'agent'>): Promise<LoadedThread> {
    let thread = this.threads.get(meta.id);
    if (!thread) {
      const now = Date.now();
      thread = { meta: { ...meta, createdAt: now, updatedAt: now }, events: [], count: 0 };
      this.threads.set(meta.id, thread);
    }
    return { meta: thread.meta, events: [...thread.events], warnings: [] };
  }

  append(event: UnsequencedRunEvent): RunEvent {
    const thread = this.threads.get(event.threadId);
    if (!thread) throw new Error(`Thread ${event.threadId} was not opened before appending.`);
    const stamped = { ...event, seq: thread.count++ } as RunEvent;
    if (this.keepEvents) thread.events.push(stamped);
    thread.meta.updatedAt = stamped.ts;
    return stamped;
  }

  async flush(): Promise<void> {}

  async get(threadId: string): Promise<LoadedThread | undefined> {
    const thread = this.threads.get(threadId);
    return thread && { meta: thread.meta, events: [...thread.events], warnings: [] };
  }

  async getFamily(threadId: string): Promise<LoadedThread | undefined> {
    const root = this.threads.get(threadId);
    if (!root) return undefined;
    const family = [...this.threads.values()].filter((t) => t === root || this.descendsFrom(t.meta, threadId));
    const events = family.flatMap((t) => t.events).sort((a, b) => a.ts - b.ts);
    return { meta: root.meta, events, warnings: [] };
  }

  async list(): Promise<ThreadMeta[]> {
    return [...this.threads.values()].map((t) => t.meta).sort((a, b) => b.updatedAt - a.updatedAt);
  }

  async delete(threadId: string): Promise<boolean> {
    if (!this.threads.has(threadId)) return false;
    for (const t of [...this.threads.values()]) if (t.meta.id === threadId || this.descendsFrom(t.meta, threadId)) this.threads.delete(t.meta.id);
    return true;
  }

  private descendsFrom(meta: ThreadMeta, ancestor: string): boolean {
    for (let parent = meta.parentThreadId; parent !== null; parent = this.threads.get(parent)?.meta.parentThreadId ?? null) {
      if (parent === ancestor) return true;
    }
    return false;
  }
}
