import type { RunEvent, UnsequencedRunEvent } from '../../../src/shared/events';
import type { LoadedThread, ThreadMeta, ThreadStore } from '../../../src/core/threads/threadStore';

/** A ThreadStore port fake that keeps threads in memory: for engine tests that are not about disk. */
export class MemoryThreadStore implements ThreadStore {
  readonly threads = new Map<string, { meta: ThreadMeta; events: RunEvent[] }>();

  async open(meta: Pick<ThreadMeta, 'id' | 'title' | 'parentThreadId' | 'agent'>): Promise<LoadedThread> {
    let t = this.threads.get(meta.id);
    if (!t) {
      t = { meta: { ...meta, createdAt: Date.now(), updatedAt: Date.now() }, events: [] };
      this.threads.set(meta.id, t);
    }
    return { meta: t.meta, events: [...t.events], warnings: [] };
  }

  append(event: UnsequencedRunEvent): RunEvent {
    const t = this.threads.get(event.threadId);
    if (!t) throw new Error(`append to unopened thread ${event.threadId}`);
    const stamped = { ...event, seq: t.events.length } as RunEvent;
    t.events.push(stamped);
    return stamped;
  }

  async flush(): Promise<void> {}

  async get(threadId: string): Promise<LoadedThread | undefined> {
    const t = this.threads.get(threadId);
    return t && { meta: t.meta, events: [...t.events], warnings: [] };
  }

  async getFamily(threadId: string): Promise<LoadedThread | undefined> {
    const root = this.threads.get(threadId);
    if (!root) return undefined;
    const events = [...this.threads.values()]
      .filter((t) => this.isIn(t.meta, threadId))
      .flatMap((t) => t.events)
      .sort((a, b) => a.ts - b.ts);
    return { meta: root.meta, events, warnings: [] };
  }

  async list(): Promise<ThreadMeta[]> {
    return [...this.threads.values()].map((t) => t.meta);
  }

  async delete(threadId: string): Promise<boolean> {
    return this.threads.delete(threadId);
  }

  /** Every event of every thread, in write order per thread. */
  all(): RunEvent[] {
    return [...this.threads.values()].flatMap((t) => t.events);
  }

  private isIn(meta: ThreadMeta, rootId: string): boolean {
    for (let m: ThreadMeta | undefined = meta; m; m = m.parentThreadId ? this.threads.get(m.parentThreadId)?.meta : undefined) {
      if (m.id === rootId) return true;
    }
    return false;
  }
}
