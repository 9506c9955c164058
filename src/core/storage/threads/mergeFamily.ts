import type { RunEvent } from '../../../shared/events';

/** Event `a` of list `i` goes before event `b` of list `j`: earlier, or as early and listed first. */
function goesFirst(i: number, a: RunEvent, j: number, b: RunEvent): boolean {
  return a.ts < b.ts || (a.ts === b.ts && i < j);
}

/**
 * Merges the event lists of a thread family by `ts`. Each list keeps its own order (seq), and on
 * equal times the list given first wins, so a parent's events come before its children's.
 */
export function mergeByTime(lists: readonly (readonly RunEvent[])[]): RunEvent[] {
  const live = lists.filter((l) => l.length > 0);
  if (live.length <= 1) return live[0]?.slice() ?? [];
  const heads = live.map(() => 0);
  const out: RunEvent[] = [];
  for (;;) {
    // The winner and the best of the rest; the rest stay put while the winner's run is taken.
    let best = -1;
    let rival = -1;
    for (let i = 0; i < live.length; i++) {
      const e = live[i]![heads[i]!];
      if (!e) continue;
      if (best < 0 || goesFirst(i, e, best, live[best]![heads[best]!]!)) {
        rival = best;
        best = i;
      } else if (rival < 0 || goesFirst(i, e, rival, live[rival]![heads[rival]!]!)) {
        rival = i;
      }
    }
    if (best < 0) return out;
    const list = live[best]!;
    const stop = rival < 0 ? undefined : live[rival]![heads[rival]!]!;
    let h = heads[best]!;
    do out.push(list[h++]!);
    while (h < list.length && (!stop || goesFirst(best, list[h]!, rival, stop)));
    heads[best] = h;
  }
}
