import type { NewThreadMeta, ThreadMeta } from './threadStore';

/** The index entry of a thread that has no event yet: what was asked for it, and no runs. */
export function newThreadEntry(meta: NewThreadMeta & { id: string }, now: number): ThreadMeta {
  return {
    id: meta.id,
    title: meta.title,
    ...(meta.firstPrompt === undefined ? {} : { firstPrompt: meta.firstPrompt }),
    parentThreadId: meta.parentThreadId,
    agent: meta.agent,
    createdAt: now,
    updatedAt: now,
    runCount: 0,
    status: 'empty',
    runIds: [],
  };
}
