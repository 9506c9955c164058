import { constants, existsSync } from 'node:fs';
import { lstat, mkdir, open, realpath, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { isInside } from './isInside';
import { FileAccessError, identityOf, sameFile } from './fileIdentity';

/**
 * A folder inside the workspace, held open, so a name in it can be opened without resolving the
 * path again. Node has no openat(); on Linux `/proc/self/fd/<fd>/<name>` is the same thing: the
 * kernel starts from the folder the descriptor holds, whatever has been renamed or swapped for a
 * symlink since. Elsewhere the folder is held by its real path and checked again after the open
 * (best effort: a swap between that check and the open is not caught there).
 */
export interface HeldFolder {
  /** A path that opens `name` in this very folder. */
  pathOf(name: string): string;
  /** Call after opening a file in it and before using it: refuses when the folder was moved or swapped meanwhile. */
  verify(): Promise<void>;
  close(): Promise<void>;
}

const ANCHORED = process.platform === 'linux' && existsSync('/proc/self/fd');
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;

/** Whether writes are bound to the folder they were judged in by the kernel (Linux), or by a check after the open. */
export const FOLDERS_ANCHORED = ANCHORED;

/**
 * Opens `segments` below the real workspace root one folder at a time, never following a symbolic
 * link (a link on the way is refused), creating missing folders when `create` is set.
 */
export async function holdFolderInside(realRoot: string, segments: readonly string[], create: boolean): Promise<HeldFolder> {
  for (const s of segments) if (s === '' || s === '.' || s === '..') throw new FileAccessError(`the path has an empty, "." or ".." part`);
  if (!ANCHORED) return holdByPath(realRoot, segments, create);
  let current: FileHandle = await open(realRoot, constants.O_RDONLY | O_DIRECTORY);
  try {
    for (const segment of segments) {
      const at = `/proc/self/fd/${current.fd}/${segment}`;
      if (create) await mkdir(at).catch((e: NodeJS.ErrnoException) => (e.code === 'EEXIST' ? undefined : Promise.reject(e)));
      const next = await open(at, constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW).catch(async (e: NodeJS.ErrnoException) => {
        // With O_DIRECTORY a link is refused as "not a directory": say which it is.
        const isLink =
          e.code === 'ENOTDIR' &&
          (await lstat(at).then(
            (i) => i.isSymbolicLink(),
            () => false,
          ));
        return Promise.reject(folderError(segment, isLink ? Object.assign(e, { code: 'ELOOP' }) : e));
      });
      await current.close();
      current = next;
    }
  } catch (error) {
    await current.close();
    throw error;
  }
  const held = current;
  return { pathOf: (name) => `/proc/self/fd/${held.fd}/${name}`, verify: async () => {}, close: () => held.close() };
}

async function holdByPath(realRoot: string, segments: readonly string[], create: boolean): Promise<HeldFolder> {
  let dir = realRoot;
  for (const segment of segments) {
    dir = join(dir, segment);
    if (create) await mkdir(dir).catch((e: NodeJS.ErrnoException) => (e.code === 'EEXIST' ? undefined : Promise.reject(e)));
    const info = await lstat(dir).catch((e: NodeJS.ErrnoException) => Promise.reject(folderError(segment, e)));
    if (!info.isDirectory())
      throw folderError(segment, Object.assign(new Error(''), { code: info.isSymbolicLink() ? 'ELOOP' : 'ENOTDIR' }));
  }
  const folder = dir;
  const before = identityOf(await lstat(folder));
  return {
    pathOf: (name) => join(folder, name),
    close: async () => {},
    verify: async () => {
      // The folder must still be the one that was walked, inside the workspace.
      const real = await realpath(folder).catch(() => '');
      const after = await lstat(folder).catch(() => undefined);
      if (!isInside(realRoot, real) || !after || !sameFile(before, identityOf(after))) {
        throw new FileAccessError('a folder on the way was moved or replaced while the file was open');
      }
    },
  };
}

function folderError(segment: string, error: NodeJS.ErrnoException): Error {
  switch (error.code) {
    case 'ELOOP':
      return new FileAccessError(`"${segment}" on the way is a symbolic link (it may have been swapped in since the path was checked)`);
    case 'ENOTDIR':
      return new FileAccessError(`"${segment}" on the way is not a folder`);
    case 'ENOENT':
      return new FileAccessError(`the folder "${segment}" on the way does not exist (any more)`);
    default:
      return error;
  }
}
