import { lstat, realpath } from 'node:fs/promises';
import { FileAccessError, kindOf, sameFile, type FileIdentity } from './fileIdentity';
import { isInside } from './isInside';
import { hardLinkReason } from './writeInside';

/**
 * Checks, right before a host writes a file its own way (the editor's WorkspaceEdit, which keeps
 * Undo), that `abs` still leads to the judged file: no link on the way, inside the workspace, a
 * regular file with one name and the same dev/ino. The host's write follows at once; what the
 * editor does between this check and its own write is not in our hands.
 */
export async function verifyJudgedFile(root: string, abs: string, expected: FileIdentity): Promise<void> {
  const realRoot = await realpath(root);
  const real = await realpath(abs).catch(() => undefined);
  if (real === undefined) throw new FileAccessError('it was removed since the path was checked');
  if (real !== abs || !isInside(realRoot, real))
    throw new FileAccessError('the path leads elsewhere now (a symbolic link was swapped in since it was checked)');
  const info = await lstat(abs);
  if (!info.isFile()) throw new FileAccessError(`it is ${kindOf(info)}, not a regular file`);
  if (info.nlink > 1) throw new FileAccessError(hardLinkReason(info.nlink));
  if (!sameFile(info, expected)) throw new FileAccessError('it was replaced by another file since it was checked');
}
