import { readFileSync } from 'node:fs';

/** Gone, or a zombie waiting to be reaped: either way it runs no more. */
export function isDead(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.startsWith('Z');
  } catch {
    return true;
  }
}

/** Its parent's pid, from /proc. */
export function parentOf(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
}
