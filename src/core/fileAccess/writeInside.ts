import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import { isInside } from './isInside';
import { FileAccessError, kindOf, sameFile, type FileIdentity } from './fileIdentity';
import { holdFolderInside } from './folderInside';

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;

/**
 * Writes `content` to the file at `abs` (a real path inside `root`) only if it is still the file
 * that was judged: `expected` is its identity when it existed, or null for a file that must not
 * exist yet. The parent is reached folder by folder without following links (folderInside.ts), the
 * file is opened with O_NOFOLLOW (and O_CREAT|O_EXCL when new), its dev/ino and link count are
 * checked on the open descriptor, and the content goes through that descriptor. In place, not
 * temp-and-rename: the file keeps its mode (a script stays executable).
 */
export async function writeInside(root: string, abs: string, content: string | Uint8Array, expected: FileIdentity | null): Promise<void> {
  const realRoot = await realpath(root);
  const rel = relative(realRoot, abs);
  if (rel === '' || !isInside(realRoot, abs)) throw new FileAccessError('it is not a file inside the workspace');
  const segments = rel.split(sep);
  const name = segments.pop()!;
  const folder = await holdFolderInside(realRoot, segments, expected === null);
  try {
    const flags = expected ? constants.O_WRONLY | O_NOFOLLOW | O_NONBLOCK : constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW;
    const file = await open(folder.pathOf(name), flags, 0o666).catch((e: NodeJS.ErrnoException) => Promise.reject(openError(e, expected !== null)));
    try {
      await folder.verify();
      const info = await file.stat();
      if (!info.isFile()) throw new FileAccessError(`it is ${kindOf(info)}, not a regular file`);
      if (info.nlink > 1) throw new FileAccessError(hardLinkReason(info.nlink));
      if (expected && !sameFile(info, expected)) throw new FileAccessError('it was replaced by another file since it was checked');
      if (expected) await file.truncate(0);
      await file.writeFile(content);
    } finally {
      await file.close();
    }
  } finally {
    await folder.close();
  }
}

/** Why a file with other names is not written: the other name may be outside the workspace. */
export function hardLinkReason(links: number): string {
  return `it is a hard link (the same file has ${links} names, and another may be outside the workspace), so writing it could change a file elsewhere`;
}

function openError(error: NodeJS.ErrnoException, existed: boolean): Error {
  switch (error.code) {
    case 'ELOOP':
      return new FileAccessError('it is a symbolic link now (it may have been swapped in since the path was checked)');
    case 'EEXIST':
      return new FileAccessError('a file of that name appeared since the path was checked; read it and try again');
    case 'ENOENT':
      return new FileAccessError(existed ? 'it was removed since the path was checked' : 'its folder was removed since the path was checked');
    case 'ENXIO':
      return new FileAccessError('it is a named pipe or a socket, not a regular file');
    default:
      return error;
  }
}
