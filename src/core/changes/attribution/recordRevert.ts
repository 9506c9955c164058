import type { RunEvent } from '../../../shared/events';
import { errorText } from '../../../shared/errorText';
import type { ThreadStore } from '../../storage/threads/threadStore';

/** A revert's record in its run's thread: the stamped event, or why it could not be written. */
export type RevertRecord = { event: RunEvent } | { error: string };

/**
 * Writes a run.reverted into the run's own thread, opening the thread for this one event: the node
 * reads "reverted" from then on, after a reload too, and a second revert knows there is nothing
 * left to undo. A thread another window writes to (ThreadBusyError) or a failing disk is said, not
 * thrown: the files were reverted all the same.
 */
export async function recordRevert(
  store: ThreadStore,
  at: { threadId: string; runId: string; ts: number },
  files: readonly string[],
  skipped: readonly { path: string; reason: string }[],
): Promise<RevertRecord> {
  try {
    const loaded = await store.get(at.threadId);
    if (!loaded) return { error: 'its conversation is gone (it was deleted meanwhile)' };
    const { id, title, parentThreadId, agent } = loaded.meta;
    await store.open({ id, title, parentThreadId, agent });
    let event: RunEvent;
    try {
      event = store.append({
        v: 1,
        kind: 'run.reverted',
        threadId: at.threadId,
        runId: at.runId,
        ts: at.ts,
        files: [...files],
        ...(skipped.length ? { skipped: [...skipped] } : {}),
      });
    } finally {
      await store.close(at.threadId);
    }
    await store.flushThreads();
    return { event };
  } catch (error) {
    return { error: errorText(error) };
  }
}
