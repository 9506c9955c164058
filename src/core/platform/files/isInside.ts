import { isAbsolute, relative, sep } from 'node:path';

/** Whether `child` is `parent` or below it; compared with a separator, so /ws-other is not in /ws. */
export function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}
