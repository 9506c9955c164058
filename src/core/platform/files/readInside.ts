import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { basename, dirname, relative, sep } from 'node:path';
import { FileAccessError, kindOf } from './fileIdentity';
import { holdFolderInside, type HeldFolder } from './folderInside';
import { isInside } from './isInside';

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;

/** Reads many files of one workspace, at once if need be; the folder of the latest read is kept open for the next ones. */
export interface InsideReader {
  /** A regular file at `abs` (a real path inside the workspace) as UTF-8. */
  read(abs: string, maxBytes?: number): Promise<string>;
  /** The same file as bytes (binary files, snapshots). */
  readBytes(abs: string, maxBytes?: number): Promise<Buffer>;
  close(): Promise<void>;
}

/**
 * Reads regular files reached like writeInside reaches them: folder by folder without following
 * links, then O_NOFOLLOW. The open is non-blocking, so a named pipe swapped in cannot hang it;
 * anything but a regular file is refused with a sentence.
 */
export function insideReader(root: string): InsideReader {
  let realRoot: Promise<string> | undefined;
  // The folder of the latest read, shared by the reads in it; closed when the reads move on and its last read ends.
  let current: { dir: string; folder: Promise<HeldFolder>; users: number; retired: boolean } | undefined;
  const release = (entry: NonNullable<typeof current>) => {
    if (--entry.users === 0 && entry.retired)
      void entry.folder.then(
        (f) => f.close(),
        () => {},
      );
  };
  const acquire = (dir: string, base: string) => {
    if (current?.dir !== dir) {
      if (current) {
        current.retired = true;
        current.users++;
        release(current);
      }
      const segments = dir === base ? [] : relative(base, dir).split(sep);
      current = { dir, folder: holdFolderInside(base, segments, false), users: 0, retired: false };
    }
    current.users++;
    return current;
  };
  const reader: InsideReader = {
    read: async (abs, maxBytes) => (await reader.readBytes(abs, maxBytes)).toString('utf8'),
    async readBytes(abs, maxBytes = Infinity) {
      const base = await (realRoot ??= realpath(root));
      if (abs === base || !isInside(base, abs)) throw new FileAccessError('it is not a file inside the workspace');
      const entry = acquire(dirname(abs), base);
      try {
        const folder = await entry.folder;
        const file = await open(folder.pathOf(basename(abs)), constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK).catch(
          (e: NodeJS.ErrnoException) =>
            Promise.reject(
              e.code === 'ELOOP'
                ? new FileAccessError('it is a symbolic link now (it may have been swapped in since the path was checked)')
                : e,
            ),
        );
        try {
          await folder.verify();
          const info = await file.stat();
          if (!info.isFile()) throw new FileAccessError(`it is ${kindOf(info)}; only regular files can be read`);
          if (info.size > maxBytes) throw new FileAccessError(`it is ${info.size} bytes, more than the ${maxBytes} that can be read`);
          return await file.readFile();
        } finally {
          await file.close();
        }
      } finally {
        release(entry);
      }
    },
    close: async () => {
      const last = current;
      current = undefined;
      if (!last) return;
      last.retired = true;
      if (last.users === 0)
        await last.folder.then(
          (f) => f.close(),
          () => {},
        );
    },
  };
  return reader;
}

/** Reads one file (see insideReader). */
export async function readInside(root: string, abs: string, maxBytes = Infinity): Promise<string> {
  return (await readBytesInside(root, abs, maxBytes)).toString('utf8');
}

/** Reads one file as bytes (see insideReader). */
export async function readBytesInside(root: string, abs: string, maxBytes = Infinity): Promise<Buffer> {
  const reader = insideReader(root);
  try {
    return await reader.readBytes(abs, maxBytes);
  } finally {
    await reader.close();
  }
}
