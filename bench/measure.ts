// The two measurements every delegation table makes, shared by bench/main.ts and the peer bench.

export type Scenario = () => Promise<string>;

/** Wall time of one run, in ms. */
export async function time(run: Scenario): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

const gc = (globalThis as { gc?: () => void }).gc;

/** Heap growth over `runs` runs after `warmup` runs, in KB; undefined without --expose-gc. */
export async function retainedKB(run: Scenario, runs: number, warmup: number): Promise<number | undefined> {
  if (!gc) return undefined;
  for (let i = 0; i < warmup; i++) await run();
  const settle = async (): Promise<number> => {
    for (let i = 0; i < 3; i++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return process.memoryUsage().heapUsed;
  };
  const before = await settle();
  for (let i = 0; i < runs; i++) await run();
  return Math.round(((await settle()) - before) / 1024);
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
