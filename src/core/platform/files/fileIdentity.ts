import type { Stats } from 'node:fs';

/** Which file on disk a path led to when it was judged: a write must reach this same file. */
export interface FileIdentity {
  dev: number;
  ino: number;
}

export function identityOf(info: Pick<Stats, 'dev' | 'ino'>): FileIdentity {
  return { dev: info.dev, ino: info.ino };
}

export function sameFile(a: FileIdentity, b: FileIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/** A file access refused for a reason the model and the user can read; nothing was changed. */
export class FileAccessError extends Error {
  override readonly name = 'FileAccessError';
}

/** What kind of thing a non-regular file is, in words. */
export function kindOf(info: Stats): string {
  if (info.isDirectory()) return 'a folder';
  if (info.isFIFO()) return 'a named pipe (FIFO)';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}
