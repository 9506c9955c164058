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
