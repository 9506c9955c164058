/** Safe file names only, so a forged id cannot reach outside the threads directory. */
export const THREAD_ID_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;

/** True when `id` may name a thread (and so a file in the threads directory). */
export function isThreadId(id: string): boolean {
  return THREAD_ID_PATTERN.test(id);
}

/** Throws unless `id` is a valid thread id. */
export function assertThreadId(id: string): void {
  if (!isThreadId(id)) {
    const shown = id.length > 60 ? `${id.slice(0, 60)}…` : id;
    throw new Error(`Invalid thread id "${shown}": a thread id is 1 to 100 letters, digits, "_" or "-".`);
  }
}
