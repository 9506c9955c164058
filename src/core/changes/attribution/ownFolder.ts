import { lstat } from 'node:fs/promises';

/**
 * Whether `path` is a folder itself: not a symbolic link to one. The snapshot store may lie in the
 * workspace (the default thread storage), where a command can put a link in a folder's place; the
 * product's own writes and clean-up there run outside the sandbox and must not follow it.
 */
export async function isOwnFolder(path: string): Promise<boolean> {
  return (await lstat(path).catch(() => undefined))?.isDirectory() === true;
}
