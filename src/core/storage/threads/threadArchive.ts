import { z } from 'zod';
import { lazySchema } from '../../../shared/lazySchema';
import { runEventSchema, type RunEvent } from '../../../shared/events';
import { isThreadId } from './threadId';
import { metaFromEvents, threadMetaSchema } from './threadIndex';
import type { ArchivedThread, ThreadMeta } from './threadStore';

export const THREAD_ARCHIVE_FORMAT = 'subagents-thread';

/**
 * The JSON export (`subagents threads export ID --format json`): the thread's entry, the entries
 * of every thread of its family (parents first) and all their events merged in time order.
 * `format` and `threads` came later: a file without them is still read (the child threads'
 * entries are rebuilt from their events).
 */
const archiveSchema = lazySchema(() =>
  z.object({
    format: z.literal(THREAD_ARCHIVE_FORMAT).optional(),
    version: z.literal(1).optional(),
    thread: threadMetaSchema,
    threads: z.array(threadMetaSchema).optional(),
    events: z.array(runEventSchema),
  }),
);

export function archiveText(meta: ThreadMeta, threads: readonly ThreadMeta[], events: readonly RunEvent[]): string {
  return JSON.stringify({ format: THREAD_ARCHIVE_FORMAT, version: 1, thread: meta, threads, events });
}

/** A file that cannot be imported, with what is wrong in a sentence. */
export class ThreadArchiveError extends Error {
  override readonly name = 'ThreadArchiveError';
}

/**
 * Reads an export file into its threads, parents first, each with its own events; throws a
 * ThreadArchiveError that says what is wrong (not JSON, the wrong shape with the path of the
 * first bad field, a subagent's thread without its top-level thread, events of a thread the file
 * does not hold, seq out of order).
 */
export function readThreadArchive(text: string, now: number): ArchivedThread[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ThreadArchiveError(
      `It is not JSON (${(error as Error).message}). Import a file made by "Export Thread" or \`subagents threads export ID --format json\`.`,
    );
  }
  const parsed = archiveSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : 'the file';
    throw new ThreadArchiveError(
      `It is not a thread export: ${where}: ${issue?.message ?? 'wrong shape'}. Import a file made by "Export Thread" or \`subagents threads export ID --format json\`.`,
    );
  }
  const { thread: root, events } = parsed.data;
  if (root.parentThreadId !== null) {
    throw new ThreadArchiveError(
      `It holds a subagent's thread (${root.id}, of ${root.parentThreadId}); export its top-level conversation and import that instead.`,
    );
  }
  const byThread = new Map<string, RunEvent[]>();
  for (const event of events) {
    const list = byThread.get(event.threadId) ?? [];
    if (list.length > 0 && event.seq <= list.at(-1)!.seq)
      throw new ThreadArchiveError(
        `Its events of thread ${event.threadId} are out of order (seq ${event.seq} after ${list.at(-1)!.seq}); the file was changed by hand.`,
      );
    list.push(event);
    byThread.set(event.threadId, list);
  }
  const metas = new Map<string, ThreadMeta>();
  for (const m of parsed.data.threads ?? [root]) metas.set(m.id, complete(m, byThread.get(m.id) ?? [], now));
  metas.set(root.id, complete(root, byThread.get(root.id) ?? [], now));
  for (const [id, list] of byThread) if (!metas.has(id)) metas.set(id, metaFromEvents(id, list, now));
  for (const meta of metas.values()) {
    if (!isThreadId(meta.id))
      throw new ThreadArchiveError(
        `It names a thread "${meta.id.slice(0, 60)}", which is not a thread id (1 to 100 letters, digits, "_" or "-").`,
      );
    if (meta.id !== root.id && (meta.parentThreadId === null || !metas.has(meta.parentThreadId))) {
      throw new ThreadArchiveError(
        `Its thread ${meta.id} belongs to ${meta.parentThreadId ?? 'no conversation'}, which the file does not hold; export the whole conversation again.`,
      );
    }
  }
  // Parents before children, as the store deletes children first and lists need their parent.
  const ordered: ArchivedThread[] = [];
  const placed = new Set<string>();
  const place = (id: string) => {
    if (placed.has(id)) return;
    placed.add(id);
    ordered.push({ meta: metas.get(id)!, events: byThread.get(id) ?? [] });
    for (const m of metas.values()) if (m.parentThreadId === id) place(m.id);
  };
  place(root.id);
  const stray = [...metas.keys()].find((id) => !placed.has(id));
  if (stray)
    throw new ThreadArchiveError(
      `Its thread ${stray} is not reached from ${root.id} (its parents form a circle); export the conversation again.`,
    );
  return ordered;
}

/** An entry as the store keeps it: counts and status from the events, the rest as exported. */
function complete(meta: z.infer<typeof threadMetaSchema>, events: readonly RunEvent[], now: number): ThreadMeta {
  const counted = metaFromEvents(meta.id, events, now);
  const out: ThreadMeta = { ...meta, runCount: counted.runCount, status: counted.status };
  return out;
}
