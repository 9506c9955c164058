import { closeSync, openSync, unlinkSync } from 'node:fs';
import { readdir, rmdir, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type * as ProperLockfile from 'proper-lockfile';

/** Held by a process that is (or may be) alive. */
export class FileLockedError extends Error {
  override readonly name = 'FileLockedError';
}

export interface FileLockOptions {
  /** A lock not refreshed for this long is taken to belong to a dead process (at least 2 s). */
  staleMs: number;
  /** Try again for this long while a live process holds it (default: do not wait). */
  waitMs?: number;
  /** The lock could not be kept fresh (the disk went away, the machine slept past the stale time). */
  onCompromised: (error: Error) => void;
}

/**
 * proper-lockfile and what it brings (graceful-fs, which patches fs; retry; signal-exit, which hooks
 * the process's signals): a lazily loaded bundle of its own (dist/lockfile.js, see
 * scripts/bundles.mjs), loaded by the first lock a store takes, not when the engine loads.
 */
let library: Promise<typeof ProperLockfile> | undefined;
const lockLibrary = (): Promise<typeof ProperLockfile> => (library ??= import('proper-lockfile'));

/**
 * A lock between processes on one file: proper-lockfile's lock folder (atomic mkdir, refreshed
 * while held, broken when stale), plus a note of who holds or wants it, so the lock of a process of
 * this machine that has ended (a crashed window, a killed CLI) is broken at once instead of after
 * the stale time. Returns the release.
 *
 * Taken and given back with synchronous file operations (the library's lockSync): a run takes one
 * at its start and gives it back at its end, and an operation through libuv's thread pool finishes
 * only on a later turn of the event loop, which a run whose model answers at once reaches only
 * after its answer. Measured in runs on ext4, in a folder of 1,000 threads (medians): the note
 * 24 µs, the lock folder's mkdir 53 µs, its rmdir 258 µs, the note's unlink 22 µs. Only waiting
 * for a holder (a contended lock) awaits.
 */
export async function takeFileLock(path: string, options: FileLockOptions): Promise<() => Promise<void>> {
  const { lockSync } = await lockLibrary();
  const owner = ownerFile(path, process.pid);
  // The note is on disk before the lock folder can be, and goes only after it: a lock folder is
  // never there without a note of whose it is, so a process killed at any point leaves a lock
  // that is broken at once (a kill between the two leaves a lone note, which nothing waits for).
  // Empty: all it says is in its name, so a write cut short by a kill cannot garble it.
  closeSync(openSync(owner, 'w'));
  const deadline = Date.now() + (options.waitMs ?? 0);
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        const unlock = lockSync(path, { realpath: false, stale: Math.max(2000, options.staleMs), onCompromised: options.onCompromised });
        return async () => {
          unlock();
          removeNote(owner);
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
      }
      if (await breakIfOwnersDied(path)) continue;
      if (Date.now() >= deadline) throw new FileLockedError(`${path} is locked by another process.`);
      await delay(Math.min(50, 2 + attempt * 2));
    }
  } catch (error) {
    removeNote(owner);
    throw error;
  }
}

export type TakeFileLock = typeof takeFileLock;

/**
 * Whether some process holds the lock of `path` now: its lock folder is there and was refreshed
 * within the stale time (a holder refreshes it every half of that). A look, not a lock.
 */
export async function leaseHeld(path: string, staleMs: number): Promise<boolean> {
  const folder = await stat(`${path}.lock`).catch(() => undefined);
  return folder !== undefined && Date.now() - folder.mtimeMs < Math.max(2000, staleMs);
}

/** One unlink (rm with force takes three operations: lstat, unlink and another look); a note already gone is fine. */
function removeNote(owner: string): void {
  try {
    unlinkSync(owner);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** Beside the lock folder (proper-lockfile removes it with rmdir, so it must stay empty); names the host and the pid. */
function ownerFile(path: string, pid: number): string {
  return `${ownerPrefix(path)}${encodeURIComponent(hostname())}@${pid}`;
}

function ownerPrefix(path: string): string {
  return `${path}.lock.owner-`;
}

/**
 * Removes a lock when every other process that said it holds or wants it is a process of this
 * machine that has ended. A live one anywhere (or one on another machine) keeps it; a dead process
 * that left no word is waited out by the stale time.
 */
async function breakIfOwnersDied(path: string): Promise<boolean> {
  const folder = dirname(path);
  const prefix = basename(ownerPrefix(path));
  const mine = basename(ownerFile(path, process.pid));
  const names = (await readdir(folder).catch(() => [] as string[])).filter((n) => n.startsWith(prefix) && n !== mine);
  if (names.length === 0) return false;
  const here = encodeURIComponent(hostname());
  for (const name of names) {
    const [host, pid] = name.slice(prefix.length).split('@');
    if (host !== here || !pid || !/^\d+$/.test(pid) || isProcessAlive(Number(pid))) return false;
  }
  // The folder first, then the notes: a breaker killed in between leaves no lock without a note.
  await rmdir(`${path}.lock`).catch(() => undefined);
  for (const name of names) removeNote(join(folder, name));
  return true;
}

/** A process of this machine that still runs (EPERM: it runs, as another user). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
