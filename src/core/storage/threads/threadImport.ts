import { rm, writeFile } from 'node:fs/promises';
import type { ConversationLeases } from './conversationLeases';
import type { IndexFile } from './indexFile';
import { rootOf } from './threadFamily';
import { assertThreadId } from './threadId';
import { ThreadExistsError, type ArchivedThread, type ThreadMeta } from './threadStore';

/** What an import needs of the JSONL store. */
export interface ThreadImportTarget {
  index: IndexFile;
  leases: ConversationLeases;
  pathOf(id: string): string;
  /** A thread open in this process (made here, its entry maybe not in the index yet). */
  isOpenHere(id: string): boolean;
}

/**
 * Writes each thread of an export file whole (`wx`: never over another's), under its
 * conversation's lease, then the index; ThreadExistsError, with nothing written, when an id is
 * taken. A failure midway removes what it wrote.
 */
export async function importThreadFiles(threads: readonly ArchivedThread[], target: ThreadImportTarget): Promise<void> {
  const { index: indexFile, leases, pathOf } = target;
  for (const { meta } of threads) assertThreadId(meta.id);
  const index = await indexFile.refresh();
  const taken = threads.map((t) => t.meta.id).filter((id) => index.has(id) || target.isOpenHere(id));
  if (taken.length > 0) throw new ThreadExistsError(taken);
  const known = new Map([...index, ...threads.map((t): [string, ThreadMeta] => [t.meta.id, t.meta])]);
  const leased: string[] = [];
  const written: string[] = [];
  try {
    for (const root of new Set(threads.map(({ meta }) => rootOf(meta.id, meta.parentThreadId, known)))) {
      await leases.hold(root);
      leased.push(root);
    }
    for (const { meta, events } of threads) {
      const text = events.map((e) => `${JSON.stringify(e)}\n`).join('');
      await writeFile(pathOf(meta.id), text, { flag: 'wx' }).catch((error: NodeJS.ErrnoException) =>
        Promise.reject(error.code === 'EEXIST' ? new ThreadExistsError([meta.id]) : error),
      );
      written.push(meta.id);
      indexFile.add({ ...meta });
    }
    await indexFile.save();
  } catch (error) {
    for (const id of written.reverse()) {
      await rm(pathOf(id), { force: true });
      indexFile.remove(id);
    }
    if (written.length > 0) await indexFile.save().catch(() => undefined);
    throw error;
  } finally {
    for (const root of leased) await leases.giveBack(root);
  }
}
