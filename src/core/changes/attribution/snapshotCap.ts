import { lstat, readdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isOwnFolder } from './ownFolder';

/** The snapshots one thread's file.changed events refer to. */
export interface ThreadReferences {
  threadId: string;
  updatedAt: number;
  hashes: ReadonlySet<string>;
}

export interface Blob {
  hash: string;
  path: string;
  size: number;
  mtimeMs: number;
}

/** A temp file older than this is left from a write that was cut short. */
const STALE_TEMP_MS = 60_000;

/**
 * The snapshot files under `objects`, through folders only (a symbolic link in the place of
 * `objects` or of a prefix folder is not followed: what is removed here is removed outside the
 * sandbox), and only regular files.
 */
export async function listBlobs(objects: string): Promise<Blob[]> {
  const out: Blob[] = [];
  if (!(await isOwnFolder(dirname(objects))) || !(await isOwnFolder(objects))) return out;
  for (const prefix of await readdir(objects).catch(() => [] as string[])) {
    if (!/^[0-9a-f]{2}$/.test(prefix) || !(await isOwnFolder(join(objects, prefix)))) continue;
    for (const name of await readdir(join(objects, prefix)).catch(() => [] as string[])) {
      const path = join(objects, prefix, name);
      const info = await lstat(path).catch(() => undefined);
      // A temp file of a write cut short is no snapshot; it goes too, once it is old (a young one is a put under way).
      if (!/^[0-9a-f]{64}$/.test(name)) {
        if (info?.isFile() && info.mtimeMs < Date.now() - STALE_TEMP_MS) await rm(path, { force: true });
        continue;
      }
      if (info?.isFile()) out.push({ hash: name, path, size: info.size, mtimeMs: info.mtimeMs });
    }
  }
  return out;
}

export interface PruneRequest {
  objects: string;
  maxBytes: number;
  references: () => Promise<ThreadReferences[]>;
  /** Needed by this process though no thread refers to them yet. */
  pinned: ReadonlySet<string>;
  /**
   * Snapshots written after this time are not taken for unreferenced: the run that wrote one may
   * not have written the event that refers to it yet.
   */
  unreferencedBefore: number;
}

/** No thread refers to it, this process does not need it, and it was not just written (its event may be on its way). */
function isUnreferenced(
  blob: Blob,
  users: ReadonlyMap<string, number>,
  request: Pick<PruneRequest, 'pinned' | 'unreferencedBefore'>,
): boolean {
  return !users.has(blob.hash) && !request.pinned.has(blob.hash) && blob.mtimeMs < request.unreferencedBefore;
}

/**
 * Removes every snapshot no thread refers to, whatever the cap: after threads were deleted (the
 * retention setting), what only they referred to goes with them. Returns the bytes left.
 */
export async function dropUnreferencedSnapshots(request: Omit<PruneRequest, 'maxBytes'>): Promise<number> {
  const blobs = await listBlobs(request.objects);
  const users = new Map<string, number>();
  for (const t of await request.references()) for (const h of t.hashes) users.set(h, 1);
  let total = 0;
  for (const blob of blobs) {
    if (isUnreferenced(blob, users, request)) await rm(blob.path, { force: true });
    else total += blob.size;
  }
  return total;
}

/**
 * Brings the snapshots under `maxBytes`: first those no thread refers to (a command's before-state
 * that changed nothing), oldest first, unless just written; then, thread by thread from the oldest, the snapshots only
 * pruned threads refer to. The newest thread keeps its snapshots whatever they weigh: its runs
 * are the ones people undo. Returns the bytes left and the threads that lost snapshots.
 */
export async function pruneSnapshots(request: PruneRequest): Promise<{ bytes: number; prunedThreads: string[] }> {
  const blobs = await listBlobs(request.objects);
  let total = blobs.reduce((sum, b) => sum + b.size, 0);
  const prunedThreads: string[] = [];
  if (total <= request.maxBytes) return { bytes: total, prunedThreads };
  const threads = [...(await request.references())].sort((a, b) => a.updatedAt - b.updatedAt);
  const users = new Map<string, number>();
  for (const t of threads) for (const h of t.hashes) users.set(h, (users.get(h) ?? 0) + 1);
  const byHash = new Map(blobs.map((b) => [b.hash, b]));
  const remove = async (blob: Blob) => {
    await rm(blob.path, { force: true });
    byHash.delete(blob.hash);
    total -= blob.size;
  };
  for (const blob of [...blobs].sort((a, b) => a.mtimeMs - b.mtimeMs)) {
    if (total <= request.maxBytes) break;
    if (isUnreferenced(blob, users, request)) await remove(blob);
  }
  for (const thread of threads.slice(0, -1)) {
    if (total <= request.maxBytes) break;
    let removed = false;
    for (const hash of thread.hashes) {
      const left = (users.get(hash) ?? 1) - 1;
      users.set(hash, left);
      const blob = byHash.get(hash);
      if (left === 0 && blob && !request.pinned.has(hash)) {
        await remove(blob);
        removed = true;
      }
    }
    if (removed) prunedThreads.push(thread.threadId);
  }
  return { bytes: total, prunedThreads };
}
