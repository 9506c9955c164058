import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { lstat, open, realpath, rename, unlink, type FileHandle } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import { isInside } from './isInside';
import { FileAccessError, identityOf, kindOf, sameFile, type FileIdentity } from './fileIdentity';
import { holdFolderInside, type HeldFolder } from './folderInside';

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;

export interface WriteInsideOptions {
  /** The temp file's name beside `name` (a test seam: an attack plants a link at the name it will use). */
  tempName?: (name: string) => string;
}

/**
 * Writes `content` to the file at `abs` (a real path inside `root`) only if it is still the file
 * that was judged: `expected` is its identity when it existed, or null for a file that must not
 * exist yet. The parent is reached folder by folder without following links (folderInside.ts), the
 * file is opened with O_NOFOLLOW (and O_CREAT|O_EXCL when new), and its dev/ino and link count are
 * checked on the open descriptor.
 *
 * An existing file is replaced whole: the content goes to a new temp file in the same folder
 * (O_CREAT|O_EXCL|O_NOFOLLOW, so a link planted at its name is never followed), which takes the
 * old file's mode and then its name by rename. Readers see the old content or the new, never a
 * mix or a half (a write cut short by a full disk or a crash leaves the old file as it was), and a
 * file swapped in for the target at the last moment (a symlink, a hard link to a file elsewhere)
 * loses its name in the workspace instead of being written through.
 */
export async function writeInside(
  root: string,
  abs: string,
  content: string | Uint8Array,
  expected: FileIdentity | null,
  options: WriteInsideOptions = {},
): Promise<void> {
  const realRoot = await realpath(root);
  const rel = relative(realRoot, abs);
  if (rel === '' || !isInside(realRoot, abs)) throw new FileAccessError('it is not a file inside the workspace');
  const segments = rel.split(sep);
  const name = segments.pop()!;
  const folder = await holdFolderInside(realRoot, segments, expected === null);
  try {
    if (expected) await replaceFile(folder, name, content, expected, options.tempName ?? tempNameFor);
    else await createFile(folder, name, content);
  } finally {
    await folder.close();
  }
}

/** A new file, created where nothing may be; removed again when its content cannot be written whole. */
async function createFile(folder: HeldFolder, name: string, content: string | Uint8Array): Promise<void> {
  const at = folder.pathOf(name);
  const file = await open(at, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW, 0o666).catch(
    (e: NodeJS.ErrnoException) => Promise.reject(openError(e, false)),
  );
  let created: FileIdentity | undefined;
  try {
    await folder.verify();
    const info = await file.stat();
    created = identityOf(info);
    await file.writeFile(content);
  } catch (error) {
    await file.close();
    // Ours, created a moment ago: no half file is left behind (closed first, as Windows will not remove an open file).
    if (created) await removeIfSame(at, created);
    throw error;
  }
  await file.close();
}

async function replaceFile(
  folder: HeldFolder,
  name: string,
  content: string | Uint8Array,
  expected: FileIdentity,
  tempName: (name: string) => string,
): Promise<void> {
  const at = folder.pathOf(name);
  // Opened for writing, as an in-place write would be: a file the user may not write is refused, not replaced.
  const target = await open(at, constants.O_WRONLY | O_NOFOLLOW | O_NONBLOCK).catch((e: NodeJS.ErrnoException) =>
    Promise.reject(openError(e, true)),
  );
  try {
    await folder.verify();
    const info = await target.stat();
    checkJudged(info, expected);
    const made = await createTemp(folder, name, tempName).catch((e: NodeJS.ErrnoException) =>
      e.code === 'EACCES' || e.code === 'EPERM' ? undefined : Promise.reject(e),
    );
    if (!made) {
      // A folder that takes no new files, holding a file we may write: written in place, as before temp files.
      await writeOver(target, content);
      return;
    }
    const { temp, tempAt, tempId } = made;
    try {
      try {
        await temp.chmod(info.mode & 0o777);
        // Best effort: a file owned by another (its group, say) stays theirs where the system lets us.
        if (process.getuid && (info.uid !== process.getuid() || info.gid !== process.getgid?.()))
          await temp.chown(info.uid, info.gid).catch(() => {});
        await temp.writeFile(content);
        await temp.datasync();
      } finally {
        await temp.close();
      }
      // The last look before the rename: still the judged file at the name, still our temp file at its own.
      checkJudged(await lstat(at).catch((e: NodeJS.ErrnoException) => Promise.reject(openError(e, true))), expected);
      const stillOurs = await lstat(tempAt).catch(() => undefined);
      if (!stillOurs || !sameFile(stillOurs, tempId))
        throw new FileAccessError('the temp file it was being written to was moved or replaced; nothing was written');
      await folder.verify();
      const refused = await rename(tempAt, at).then(
        () => undefined,
        (e: NodeJS.ErrnoException) => e,
      );
      if (refused && !lockedOnWindows(refused)) throw refused;
      if (refused) {
        // Windows will not rename over a file another program holds open: written in place, through the judged file's own handle.
        await removeIfSame(tempAt, tempId);
        await writeOver(target, content);
        return;
      }
    } catch (error) {
      await removeIfSame(tempAt, tempId);
      throw error;
    }
    // A swap between the last look and the rename puts something else at the name: said, not hidden.
    const landed = await lstat(at).catch(() => undefined);
    if (!landed || !sameFile(landed, tempId))
      throw new FileAccessError('something was swapped in at its name while it was written; check the file');
  } finally {
    await target.close();
  }
}

function lockedOnWindows(error: NodeJS.ErrnoException): boolean {
  return process.platform === 'win32' && (error.code === 'EPERM' || error.code === 'EACCES' || error.code === 'EBUSY');
}

/** The content from the first byte, then the file cut to its length: nothing of a longer old content is left after it. */
async function writeOver(file: FileHandle, content: string | Uint8Array): Promise<void> {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  let written = 0;
  while (written < bytes.length) written += (await file.write(bytes, written, bytes.length - written, written)).bytesWritten;
  await file.truncate(bytes.length);
}

function checkJudged(info: Stats, expected: FileIdentity): void {
  if (!info.isFile()) throw new FileAccessError(`it is ${kindOf(info)}, not a regular file`);
  if (info.nlink > 1) throw new FileAccessError(hardLinkReason(info.nlink));
  if (!sameFile(info, expected)) throw new FileAccessError('it was replaced by another file since it was checked');
}

/** A temp file of our own beside the target; a name that is taken (perhaps by a planted link) is passed over. */
async function createTemp(folder: HeldFolder, name: string, tempName: (name: string) => string) {
  for (let attempt = 0; ; attempt++) {
    const tempAt = folder.pathOf(tempName(name));
    try {
      const temp = await open(tempAt, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW, 0o600);
      return { temp, tempAt, tempId: identityOf(await temp.stat()) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 4) throw error;
    }
  }
}

/** `.name.subagents-1a2b3c4d5e6f`: hidden, beside the target, and named for it should a crash leave it behind. */
function tempNameFor(name: string): string {
  return `.${Array.from(name).slice(0, 60).join('')}.subagents-${randomBytes(6).toString('hex')}`;
}

async function removeIfSame(at: string, id: FileIdentity): Promise<void> {
  const info = await lstat(at).catch(() => undefined);
  if (info && sameFile(info, id)) await unlink(at).catch(() => {});
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
      return new FileAccessError(
        existed ? 'it was removed since the path was checked' : 'its folder was removed since the path was checked',
      );
    case 'ENXIO':
      return new FileAccessError('it is a named pipe or a socket, not a regular file');
    default:
      return error;
  }
}
