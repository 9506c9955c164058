// What every delegation table shares, in bench/main.ts and the peer bench: the two measurements and the order of a round.

import { summarize, type Summary } from './stats';

export type Scenario = () => Promise<string>;

/** Wall time of one run, in ms. */
export async function time(run: Scenario): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

const gc = (globalThis as { gc?: () => void }).gc;

/** How many windows of runs the heap figure takes the median of. */
export const HEAP_WINDOWS = 5;

/**
 * Heap growth over `runs` runs, in KB, in `windows` windows of `runs` runs one after another (after
 * `warmup` runs): their median, min and max; undefined without --expose-gc. One window swings by
 * hundreds of KB from one bench to the next (the code the JIT compiles meanwhile lands on the heap
 * too, most of it in the first window); what a run leaks grows in every window.
 */
export async function retainedKB(run: Scenario, runs: number, warmup: number, windows = HEAP_WINDOWS): Promise<Summary | undefined> {
  if (!gc) return undefined;
  for (let i = 0; i < warmup; i++) await run();
  const settle = async (): Promise<number> => {
    for (let i = 0; i < 3; i++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return process.memoryUsage().heapUsed;
  };
  const grown: number[] = [];
  let before = await settle();
  for (let w = 0; w < windows; w++) {
    for (let i = 0; i < runs; i++) await run();
    const after = await settle();
    grown.push(Math.round((after - before) / 1024));
    before = after;
  }
  return summarize(grown);
}

/**
 * The columns' order for one round, fresh and random each round. In a fixed order a column always
 * runs right after the same other one, and inherits, round after round, what that one leaves: its
 * garbage (a collection falls due in the next run) and caches cold from its work.
 */
export function roundOrder(columns: number): number[] {
  const order = Array.from({ length: columns }, (_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}
