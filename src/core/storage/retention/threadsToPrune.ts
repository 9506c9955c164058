import type { ThreadRetention } from '../../config/settings/engineSettings';
import type { ThreadMeta } from '../threads/threadStore';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The top-level threads `retention` lets go, oldest first: those not updated for `maxAgeDays`,
 * and those past the `maxThreads` most recently updated. A working thread (status `running`) is
 * never among them, and still counts toward `maxThreads`, so the idle ones beyond it go instead.
 */
export function threadsToPrune(threads: readonly ThreadMeta[], retention: ThreadRetention, now: number): ThreadMeta[] {
  const { maxThreads, maxAgeDays } = retention;
  if (maxThreads === undefined && maxAgeDays === undefined) return [];
  const top = threads.filter((t) => t.parentThreadId === null).sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : 1));
  const cutoff = maxAgeDays === undefined ? -Infinity : now - maxAgeDays * DAY_MS;
  const out = top.filter((t, rank) => t.status !== 'running' && (t.updatedAt < cutoff || (maxThreads !== undefined && rank >= maxThreads)));
  return out.reverse();
}
