import type { ThreadStore } from '../../core/storage/threads/threadStore';
import { ThreadBusyError } from '../../core/storage/threads/threadLeases';
import type { PromptQueue } from '../../core/engine/requests/promptQueue';
import type { Logger } from '../../core/ports';
import { oneLine } from '../../shared/oneLine';

/** What deleting conversations from the panel needs: the store, the queue (what works here), a confirmation. */
export interface DeletionDeps {
  store: ThreadStore;
  queue: Pick<PromptQueue, 'isBusy'>;
  logger: Logger;
  confirm?: (message: string, action: string, detail: string) => Promise<boolean>;
  /** Ends the external agents (ACP) kept for a deleted conversation's child threads. */
  endAgents?: (rootThreadId: string) => Promise<void>;
}

/**
 * Deletes a top-level thread with its child threads, after asking once. False when the user
 * said no; throws a sentence when it cannot be deleted (gone, or working).
 */
export async function deleteConversation(deps: DeletionDeps, threadId: string): Promise<boolean> {
  const meta = (await deps.store.list()).find((t) => t.id === threadId && t.parentThreadId === null);
  if (!meta) throw new Error('That conversation is no longer there; it may have been deleted.');
  if (deps.queue.isBusy(threadId)) throw new Error(`"${oneLine(meta.title, 60)}" is still working: stop it first, then delete it.`);
  if (!deps.confirm) throw new Error('Deleting conversations is not available here.');
  const turns = `${meta.runCount} turn${meta.runCount === 1 ? '' : 's'}`;
  if (
    !(await deps.confirm(
      `Delete the conversation "${oneLine(meta.title, 60)}"?`,
      'Delete',
      `Its ${turns} and its subagents' threads are deleted with it. This cannot be undone.`,
    ))
  )
    return false;
  try {
    await deps.store.delete(threadId);
  } catch (error) {
    if (error instanceof ThreadBusyError)
      throw new Error(`"${oneLine(meta.title, 60)}" is working in another window: wait for it to finish there, then delete it.`);
    throw error;
  }
  await deps.endAgents?.(threadId);
  deps.logger.info(`Deleted thread ${threadId} and its child threads.`);
  return true;
}

/**
 * Deletes every conversation after one confirmation, each with its child threads (children
 * first); those working here or in another window are kept and counted. Undefined when the
 * user backs out or there is nothing to delete.
 */
export async function deleteAllConversations(deps: DeletionDeps): Promise<{ deleted: number; kept: number } | undefined> {
  const threads = (await deps.store.list()).filter((t) => t.parentThreadId === null);
  if (threads.length === 0) return undefined;
  if (!deps.confirm) throw new Error('Deleting conversations is not available here.');
  const n = threads.length === 1 ? 'the 1 conversation' : `all ${threads.length} conversations`;
  if (
    !(await deps.confirm(
      `Delete ${n}?`,
      'Delete All',
      "Their turns and their subagents' threads are deleted with them; one that is working is kept. This cannot be undone.",
    ))
  )
    return undefined;
  let deleted = 0;
  let kept = 0;
  for (const meta of threads) {
    if (deps.queue.isBusy(meta.id)) {
      kept++;
      continue;
    }
    try {
      if (await deps.store.delete(meta.id, { ifIdle: true })) {
        deleted++;
        await deps.endAgents?.(meta.id);
      }
    } catch (error) {
      if (!(error instanceof ThreadBusyError)) throw error;
      kept++;
    }
  }
  deps.logger.info(
    `Deleted ${deleted} conversation${deleted === 1 ? '' : 's'} with their child threads${kept ? `; ${kept} working one${kept === 1 ? ' was' : 's were'} kept` : ''}.`,
  );
  return { deleted, kept };
}
