import { join } from 'node:path';
import type { Logger } from '../../ports';
import type { ThreadStore } from '../../storage/threads/threadStore';
import { FileSnapshotStore } from './fileSnapshotStore';
import type { ThreadReferences } from './snapshotCap';

const MB = 1024 * 1024;

/**
 * The snapshots of a thread directory: `<threads>/snapshots`, capped at `maxMB()` (the
 * `subagents.snapshots.maxMB` setting, read when the cap is checked), the threads' own
 * file.changed events saying which snapshot belongs to which thread.
 */
export function threadSnapshots(options: {
  threadsDir: string;
  store: ThreadStore;
  maxMB: () => number;
  logger: Logger;
}): FileSnapshotStore {
  return new FileSnapshotStore({
    dir: join(options.threadsDir, 'snapshots'),
    maxBytes: () => options.maxMB() * MB,
    references: () => snapshotReferences(options.store),
    logger: options.logger,
  });
}

/** Which snapshots each thread's file.changed events name. */
export async function snapshotReferences(store: ThreadStore): Promise<ThreadReferences[]> {
  const out: ThreadReferences[] = [];
  for (const meta of await store.list()) {
    const thread = await store.get(meta.id);
    if (!thread) continue;
    const hashes = new Set<string>();
    for (const e of thread.events) {
      if (e.kind !== 'file.changed') continue;
      if (e.beforeHash) hashes.add(e.beforeHash);
      if (e.afterHash) hashes.add(e.afterHash);
    }
    out.push({ threadId: meta.id, updatedAt: meta.updatedAt, hashes });
  }
  return out;
}
