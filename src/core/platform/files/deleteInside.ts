import { lstat, realpath, unlink } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import { FileAccessError, kindOf, sameFile, type FileIdentity } from './fileIdentity';
import { holdFolderInside } from './folderInside';
import { isInside } from './isInside';
import { hardLinkReason } from './writeInside';

/**
 * Removes the file at `abs` (a real path inside `root`) only if it is still the judged one: reached
 * folder by folder without following links, a regular file with one name and `expected`'s dev/ino.
 * A revert uses it to take back a file a run created.
 */
export async function deleteInside(root: string, abs: string, expected: FileIdentity): Promise<void> {
  const realRoot = await realpath(root);
  const rel = relative(realRoot, abs);
  if (rel === '' || !isInside(realRoot, abs)) throw new FileAccessError('it is not a file inside the workspace');
  const segments = rel.split(sep);
  const name = segments.pop()!;
  const folder = await holdFolderInside(realRoot, segments, false);
  try {
    const at = folder.pathOf(name);
    const info = await lstat(at).catch((e: NodeJS.ErrnoException) =>
      Promise.reject(e.code === 'ENOENT' ? new FileAccessError('it was removed since it was checked') : e),
    );
    await folder.verify();
    if (!info.isFile()) throw new FileAccessError(`it is ${kindOf(info)}, not a regular file`);
    if (info.nlink > 1) throw new FileAccessError(hardLinkReason(info.nlink));
    if (!sameFile(info, expected)) throw new FileAccessError('it was replaced by another file since it was checked');
    await unlink(at);
  } finally {
    await folder.close();
  }
}
