import { lstat, readlink } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/** More symlinks than this in one path is a loop (Linux stops at 40 too). */
const MAX_LINKS = 40;

/**
 * Where a path opened by a program really leads, resolved as the kernel does it: one component at
 * a time, following each symlink before the next `..`, so `outlink/../f` is the `f` beside the
 * link's target, not the one in the workspace. A dangling link leads to where it points (a write
 * creates the file there). Past a part that does not exist the rest is joined as written.
 * `cwd` must be physical already.
 */
export async function physicalPath(cwd: string, target: string): Promise<string> {
  let current = isAbsolute(target) ? '/' : cwd;
  const parts = target.split('/');
  let links = 0;
  let missing = false;
  while (parts.length > 0) {
    const part = parts.shift()!;
    if (part === '' || part === '.') continue;
    if (part === '..') {
      current = dirname(current);
      continue;
    }
    const next = join(current, part);
    if (missing) {
      current = next;
      continue;
    }
    const info = await lstat(next).catch(() => undefined);
    if (!info) {
      missing = true;
      current = next;
    } else if (info.isSymbolicLink()) {
      if (++links > MAX_LINKS) return next;
      const to = await readlink(next);
      parts.unshift(...to.split('/'));
      if (isAbsolute(to)) current = '/';
    } else current = next;
  }
  return current;
}

/** `cd`'s own rule (bash's default, logical): `..` removes the last name written, before symlinks. */
export function logicalPath(cwd: string, target: string): string {
  return resolve(cwd, target);
}
