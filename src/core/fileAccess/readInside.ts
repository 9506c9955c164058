import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import { isInside } from './isInside';
import { FileAccessError, kindOf } from './fileIdentity';
import { holdFolderInside } from './folderInside';

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;

/**
 * Reads a regular file at `abs` (a real path inside `root`) as UTF-8, reached like writeInside
 * reaches it: folder by folder without following links, then O_NOFOLLOW. The open is non-blocking,
 * so a named pipe swapped in cannot hang it; anything but a regular file is refused with a sentence.
 */
export async function readInside(root: string, abs: string, maxBytes = Infinity): Promise<string> {
  const realRoot = await realpath(root);
  const rel = relative(realRoot, abs);
  if (rel === '' || !isInside(realRoot, abs)) throw new FileAccessError('it is not a file inside the workspace');
  const segments = rel.split(sep);
  const name = segments.pop()!;
  const folder = await holdFolderInside(realRoot, segments, false);
  try {
    const file = await open(folder.pathOf(name), constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK).catch((e: NodeJS.ErrnoException) =>
      Promise.reject(e.code === 'ELOOP' ? new FileAccessError('it is a symbolic link now (it may have been swapped in since the path was checked)') : e),
    );
    try {
      await folder.verify();
      const info = await file.stat();
      if (!info.isFile()) throw new FileAccessError(`it is ${kindOf(info)}; only regular files can be read`);
      if (info.size > maxBytes) throw new FileAccessError(`it is ${info.size} bytes, more than the ${maxBytes} that can be read`);
      return await file.readFile('utf8');
    } finally {
      await file.close();
    }
  } finally {
    await folder.close();
  }
}
