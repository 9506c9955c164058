import { EMPTY_TREE, foldRunEvents, type RunNode } from '../../../shared/runTree';
import type { ThreadStore } from '../../storage/threads/threadStore';

/** One run as its thread's events fold it (its `changes` included), or undefined when the thread has no such run. */
export async function loadRun(store: ThreadStore, threadId: string, runId: string): Promise<RunNode | undefined> {
  const thread = await store.get(threadId);
  if (!thread) return undefined;
  return foldRunEvents(EMPTY_TREE, thread.events).runs[runId];
}
