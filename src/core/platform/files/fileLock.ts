import { randomBytes } from 'node:crypto';
import {
  closeSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { lstat, readFile, utimes } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

/** Held by a process that is (or may be) alive. */
export class FileLockedError extends Error {
  override readonly name = 'FileLockedError';
}

export interface FileLockOptions {
  /** A lock not refreshed for this long is taken to belong to a dead process (at least 2 s). */
  staleMs: number;
  /** Try again for this long while a live process holds it (default: do not wait). */
  waitMs?: number;
  /** The lock could not be kept fresh (the disk went away, the machine slept past the stale time), or another process broke it. */
  onCompromised: (error: Error) => void;
}

/**
 * A lock between processes on one file: `<file>.lock`, a hard link to this process's owner note
 * (`.owners/<host>@<pid>` in the same folder, made once per process and folder, its text naming
 * the host, the pid and a random token of this process). Linking is atomic (EEXIST when held), so
 * the lock is never on disk without the name of its holder: the lock of a process of this machine
 * that has ended (a crashed window, a killed CLI) is broken at once, any other after `staleMs`
 * without a refresh (every holder's locks are refreshed every half of that). Returns the release.
 *
 * Why not proper-lockfile's lock folder: a folder costs an inode and a block to make and to
 * remove, and each lock needed a note file of its own beside it. On the ext4 this project is
 * built on (no journal, mounted with `discard`) the folder's rmdir alone took 250–450 µs, and the
 * whole lease was about a tenth of a 3-child delegation at L = 0 (bench/peers; docs/ARCHITECTURE.md).
 * A link and an unlink touch only the folder's entries: 24 and 12 µs. On a file system without
 * hard links (FAT, some network shares) the lock is a file of its own made with O_EXCL, the
 * holder's name written in it; a kill between its making and that write leaves a lock that waits
 * out the stale time.
 *
 * Synchronous file calls: a run takes its lease at its start and gives it back at its end, and an
 * operation through libuv's thread pool finishes only on a later turn of the event loop, which a
 * run whose model answers at once reaches only after its answer. Only waiting for a holder awaits.
 */
export async function takeFileLock(path: string, options: FileLockOptions): Promise<() => Promise<void>> {
  const lockPath = `${path}.lock`;
  const staleMs = Math.max(2000, options.staleMs);
  const deadline = Date.now() + (options.waitMs ?? 0);
  for (let attempt = 0; ; attempt++) {
    // A lock this process holds is as taken as another's: the second taker waits or is refused.
    if (!held.has(lockPath)) {
      if (tryLock(lockPath, dirname(path), staleMs)) {
        const lock: HeldLock = { lockPath, staleMs, refreshedAt: Date.now(), onCompromised: options.onCompromised, lost: false };
        held.set(lockPath, lock);
        keepFresh(staleMs);
        return async () => release(lock);
      }
      if (breakIfAbandoned(lockPath, staleMs)) continue;
    }
    if (Date.now() >= deadline) throw new FileLockedError(`${path} is locked by another process.`);
    await delay(Math.min(50, 2 + attempt * 2));
  }
}

export type TakeFileLock = typeof takeFileLock;

/**
 * Whether some process holds the lock of `path` now: it is there, refreshed within the stale
 * time, and its holder is not a process of this machine that has ended. A look, not a lock.
 */
export async function leaseHeld(path: string, staleMs: number): Promise<boolean> {
  const lockPath = `${path}.lock`;
  const found = await lstat(lockPath).catch(() => undefined);
  if (!found || Date.now() - found.mtimeMs >= Math.max(2000, staleMs)) return false;
  if (found.isDirectory()) return true;
  const owner = await readFile(lockPath, 'utf8').catch(() => undefined);
  return owner === undefined || !ownerEnded(owner, lockPath);
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

interface HeldLock {
  lockPath: string;
  staleMs: number;
  refreshedAt: number;
  onCompromised: (error: Error) => void;
  /** Broken by another process, or not refreshed in time: not this process's to remove. */
  lost: boolean;
}

interface OwnerNote {
  path: string;
  /** When its mtime (which every lock linked to it shares) was last set. */
  touchedAt: number;
  /** False once the folder's file system refused a hard link. */
  links: boolean;
}

/** The folder, beside the locked files, of the owner notes of the processes that lock there. */
const OWNERS = '.owners';
/** File systems without hard links answer a link with one of these. */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV', 'EMLINK']);

const held = new Map<string, HeldLock>();
const notes = new Map<string, OwnerNote>();
let me: { host: string; line: string } | undefined;
let ticker: NodeJS.Timeout | undefined;
let tickMs = Infinity;

/** This process's name in its notes and locks: `<host>@<pid>#<token>` (the token tells it from an ended process that had its pid). */
function self(): { host: string; line: string } {
  return (me ??= (() => {
    const host = encodeURIComponent(hostname());
    return { host, line: `${host}@${process.pid}#${randomBytes(6).toString('hex')}` };
  })());
}

function tryLock(lockPath: string, folder: string, staleMs: number): boolean {
  const note = ownerNote(folder, staleMs);
  if (note.links) {
    try {
      linkSync(note.path, lockPath);
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (code === 'EEXIST') return false;
      // The note was removed from under this process (by hand): make it again, once.
      if (code === 'ENOENT' && !exists(note.path) && exists(folder)) {
        notes.delete(folder);
        return tryLock(lockPath, folder, staleMs);
      }
      if (!NO_HARD_LINKS.has(code)) throw error;
      note.links = false;
    }
  }
  return makeLockFile(lockPath, self().line);
}

/** Without hard links: the lock made as a file of its own (O_EXCL), its holder's text in it; false when one is there. */
function makeLockFile(lockPath: string, text: string): boolean {
  const fd = unless('EEXIST', () => openSync(lockPath, 'wx'));
  if (fd === undefined) return false;
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * This process's note in `folder`, made on the first lock there (clearing the notes of ended
 * processes of this machine), its mtime set again when it may be near stale: a new link shares
 * the note's mtime, and must not look stale the moment it is made.
 */
function ownerNote(folder: string, staleMs: number): OwnerNote {
  let note = notes.get(folder);
  if (!note) {
    const owners = join(folder, OWNERS);
    mkdirSync(owners, { recursive: true });
    removeEndedNotes(owners);
    const path = join(owners, self().line.slice(0, self().line.indexOf('#')));
    // An ended process with this pid may have left its note, which its locks may still share: a new one, never written over.
    removeFile(path);
    writeFileSync(path, self().line, { flag: 'wx' });
    note = { path, touchedAt: Date.now(), links: true };
    notes.set(folder, note);
    if (notes.size === 1) process.once('exit', removeAllOnExit);
  }
  const now = Date.now();
  if (note.links && now - note.touchedAt > staleMs / 4) {
    utimesSync(note.path, now / 1000, now / 1000);
    note.touchedAt = now;
  }
  return note;
}

/** Removes a lock whose holder has ended (a process of this machine) or that went stale; true when it is gone. */
function breakIfAbandoned(lockPath: string, staleMs: number): boolean {
  // Each look below may find the lock gone (given back meanwhile): then it is free.
  const seen = unless('ENOENT', () => lstatSync(lockPath));
  if (!seen) return true;
  if (seen.isDirectory()) {
    // The lock folder of an earlier version (proper-lockfile), which its holder refreshes.
    if (Date.now() - seen.mtimeMs <= staleMs) return false;
    tryRemove(() => rmdirSync(lockPath));
    return true;
  }
  const judged = abandoned(lockPath, lockPath, seen, staleMs);
  if (judged !== true) return judged === 'gone';
  // Moved aside, then judged again: another process may have broken it too and taken the thread
  // between the look and the move (its lock may even have the freed inode of the one judged), and
  // a lock that is not abandoned is put back.
  const aside = `${lockPath}.broken-${process.pid}-${randomBytes(4).toString('hex')}`;
  const moved = unless('ENOENT', () => {
    renameSync(lockPath, aside);
    return lstatSync(aside);
  });
  if (!moved) return true;
  if (abandoned(aside, lockPath, moved, staleMs) !== true) putBack(aside, lockPath, moved);
  removeFile(aside);
  return true;
}

/**
 * Puts a lock moved aside by mistake back, never over a lock taken again meanwhile (then the
 * holder of the one put aside finds it lost at its next refresh). Without hard links, the lock is
 * made again with O_EXCL, its text and mtime copied: a rename back would replace a lock a third
 * process took between a look and the rename. (For the moment it is being written it is empty,
 * and a refresh of its holder just then gives the thread up, with a message: never two writers.)
 */
function putBack(aside: string, lockPath: string, moved: Stats): void {
  try {
    linkSync(aside, lockPath);
  } catch (error) {
    if (!NO_HARD_LINKS.has((error as NodeJS.ErrnoException).code ?? '')) return;
    const owner = unless('ENOENT', () => readFileSync(aside, 'utf8'));
    if (owner === undefined || !makeLockFile(lockPath, owner)) return;
    try {
      utimesSync(lockPath, moved.atime, moved.mtime);
    } catch {
      // Then it is as fresh as now: it goes stale one stale time later, or at once when its holder has ended.
    }
  }
}

/**
 * Whether the lock of `lockPath`, found at `path` as `found`, is abandoned: not refreshed within
 * the stale time, or held by a process of this machine that has ended. 'gone' when it went meanwhile.
 */
function abandoned(path: string, lockPath: string, found: Stats, staleMs: number): boolean | 'gone' {
  if (Date.now() - found.mtimeMs > staleMs) return true;
  const owner = unless('ENOENT', () => readFileSync(path, 'utf8'));
  if (owner === undefined) return 'gone';
  return ownerEnded(owner, lockPath);
}

/** Whether the holder named by a lock's text is a process of this machine that has ended (or this one, which does not hold it). */
function ownerEnded(owner: string, lockPath: string): boolean {
  const parsed = /^(.+)@(\d+)#[0-9a-f]+$/.exec(owner);
  if (!parsed || parsed[1] !== self().host) return false;
  const pid = Number(parsed[2]);
  if (pid === process.pid) return !held.has(lockPath) || owner !== self().line;
  return !isProcessAlive(pid);
}

function release(lock: HeldLock): void {
  if (held.get(lock.lockPath) === lock) held.delete(lock.lockPath);
  if (!lock.lost) removeFile(lock.lockPath);
}

/** Every held lock is refreshed on one timer, every half of the shortest stale time asked for. */
function keepFresh(staleMs: number): void {
  if (ticker && staleMs / 2 >= tickMs) return;
  if (ticker) clearInterval(ticker);
  tickMs = staleMs / 2;
  ticker = setInterval(() => void refreshAll(), tickMs);
  ticker.unref();
}

async function refreshAll(): Promise<void> {
  for (const lock of [...held.values()]) {
    const now = Date.now();
    if (now - lock.refreshedAt > lock.staleMs) {
      lose(
        lock,
        new Error(
          `${lock.lockPath} was not refreshed for ${now - lock.refreshedAt} ms (the process was busy or asleep), so another process may have taken it.`,
        ),
      );
      continue;
    }
    try {
      await utimes(lock.lockPath, now / 1000, now / 1000);
      const owner = await readFile(lock.lockPath, 'utf8');
      if (owner !== self().line) lose(lock, new Error(`${lock.lockPath} was taken by another process.`));
      else lock.refreshedAt = now;
    } catch (error) {
      lose(lock, new Error(`${lock.lockPath} could not be refreshed: ${(error as Error).message}`));
    }
  }
}

function lose(lock: HeldLock, error: Error): void {
  if (held.get(lock.lockPath) !== lock) return;
  held.delete(lock.lockPath);
  lock.lost = true;
  lock.onCompromised(error);
}

/** Notes named after processes of this machine that have ended; their locks are broken by whoever meets them. */
function removeEndedNotes(owners: string): void {
  const here = `${self().host}@`;
  for (const name of readdirSync(owners)) {
    const pid = name.startsWith(here) ? Number(name.slice(here.length)) : NaN;
    if (Number.isInteger(pid) && pid !== process.pid && !isProcessAlive(pid)) removeFile(join(owners, name));
  }
}

/** The process ends: its locks and notes go with it (a kill leaves them, and the next taker breaks them at once). */
function removeAllOnExit(): void {
  const paths = [...[...held.values()].filter((l) => !l.lost).map((l) => l.lockPath), ...[...notes.values()].map((n) => n.path)];
  held.clear();
  notes.clear();
  for (const path of paths) {
    try {
      unlinkSync(path);
    } catch {
      // Exiting: what is left is broken by the next taker (this pid has ended).
    }
  }
}

/** What `operation` returns, or undefined when it fails with `code` (any other failure is thrown). */
function unless<T>(code: string, operation: () => T): T | undefined {
  try {
    return operation();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === code) return undefined;
    throw error;
  }
}

/** One unlink; a file already gone is fine. */
function removeFile(path: string): void {
  tryRemove(() => unlinkSync(path));
}

function tryRemove(remove: () => void): void {
  try {
    remove();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'EEXIST' && code !== 'ENOTEMPTY') throw error;
  }
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
