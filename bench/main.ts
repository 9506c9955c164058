import { engineScenario } from './engineScenario';
import { floorScenario } from './floor';
import { MemoryThreadStore } from './memoryStore';
import { formatMs, summarize, table } from './stats';

// `npm run bench`: the delegation scenario of DESIGN section 11. A supervisor delegates one task to
// N subagents; each subagent's model waits L ms, then streams 50 text deltas; the supervisor
// answers. Floor = bare ai@7; ours = the engine with the same mock models. Floor and ours run
// alternately, so noise from the rest of the machine hits both columns alike. Prints, never asserts.

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const RUNS = arg('--runs', 20);
const WARMUP = arg('--warmup', 5);
const SCENARIOS = [
  { n: 3, latencyMs: 0 },
  { n: 8, latencyMs: 0 },
  { n: 3, latencyMs: 200 },
  { n: 8, latencyMs: 200 },
];

type Scenario = () => Promise<string>;

async function time(run: Scenario): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

const gc = (globalThis as { gc?: () => void }).gc;

/** Heap growth over RUNS runs after a warm-up, in KB; undefined without --expose-gc. */
async function retainedKB(run: Scenario): Promise<number | undefined> {
  if (!gc) return undefined;
  for (let i = 0; i < WARMUP; i++) await run();
  const settle = async (): Promise<number> => {
    for (let i = 0; i < 3; i++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return process.memoryUsage().heapUsed;
  };
  const before = await settle();
  for (let i = 0; i < RUNS; i++) await run();
  return Math.round(((await settle()) - before) / 1024);
}

async function main(): Promise<void> {
  console.log(`Delegation bench: ${RUNS} runs after ${WARMUP} warm-up runs, medians (min–max); node ${process.version}`);
  const rows = [['scenario', 'floor: bare ai@7', 'ours: engine', 'ours/floor']];
  for (const { n, latencyMs } of SCENARIOS) {
    const floor = floorScenario(n, latencyMs);
    const ours = engineScenario(n, latencyMs, new MemoryThreadStore());
    for (let i = 0; i < WARMUP; i++) {
      await floor();
      await ours();
    }
    const floorMs: number[] = [];
    const oursMs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      floorMs.push(await time(floor));
      oursMs.push(await time(ours));
    }
    const f = summarize(floorMs);
    const o = summarize(oursMs);
    rows.push([`${n} children, L = ${latencyMs} ms`, formatMs(f), formatMs(o), `${(o.median / f.median).toFixed(2)} x`]);
    console.log(`  done: ${rows.at(-1)![0]}`);
  }
  console.log(`\n${table(rows)}\n`);

  const floorKB = await retainedKB(floorScenario(3, 0));
  // The store keeps nothing here, so what remains is the engine's own (registry, listeners, caches).
  const oursKB = await retainedKB(engineScenario(3, 0, new MemoryThreadStore(false)));
  if (floorKB === undefined || oursKB === undefined) console.log('Retained memory: run with node --expose-gc to measure it.');
  else console.log(`Heap retained after ${RUNS} runs (3 children, L = 0): floor ${floorKB} KB, ours ${oursKB} KB (budget: under 512 KB)`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
