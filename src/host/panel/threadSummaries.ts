import type { ThreadStore } from '../../core/storage/threads/threadStore';
import type { ThreadSummary } from '../../shared/protocol';

/**
 * The panel's thread list: top-level threads, newest first, from the store's index alone (title,
 * dates, run count, status), so a list of hundreds reads no thread file. A thread this window is
 * about to work on (a queued message starting) shows as running already.
 */
export async function threadSummaries(store: Pick<ThreadStore, 'list'>, isBusy: (threadId: string) => boolean): Promise<ThreadSummary[]> {
  const all = await store.list();
  return all
    .filter((t) => t.parentThreadId === null)
    .map((t) => ({
      id: t.id,
      title: t.title,
      createdAt: t.createdAt,
      updatedAt: t.updatedAt,
      status: isBusy(t.id) ? 'running' : t.status,
      runCount: t.runCount,
    }));
}
