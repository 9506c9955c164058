import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonlThreadStore } from '../src/core/threads/jsonlThreadStore';
import { engineScenario } from './engineScenario';
import { eventsAndStoreBench } from './eventsAndStore';
import { threadListBench } from './threadList';
import { floorScenario } from './floor';
import { judgeBench } from './judgeBench';
import { commandBench } from './commandBench';
import { mcpBench } from './mcpBench';
import { changesBench } from './changesBench';
import { MemoryThreadStore } from '../src/core/threads/memoryThreadStore';
import { formatMs, summarize, table, type Summary } from './stats';
import { agentCorpus } from './agentCorpus';
import { agentFilesBench } from './agentFiles';
import { webviewRenderBench } from './webviewRender';

// `npm run bench`: the delegation scenario of DESIGN section 11. A supervisor delegates one task to
// N subagents; each subagent's model waits L ms, then streams 50 text deltas; the supervisor
// answers. Floor = bare ai@7; ours = the engine with the same mock models, once with a store in
// memory and once with the JSONL store writing to a temp folder. The columns run alternately, so
// noise from the rest of the machine hits them alike. Prints, never asserts.

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
  const corpus = process.argv.indexOf('--corpus');
  if (corpus >= 0) return agentCorpus(process.argv[corpus + 1]!);
  if (process.argv.includes('--webview')) {
    for (const line of await webviewRenderBench()) console.log(line);
    return;
  }
  if (process.argv.includes('--changes')) {
    for (const line of await changesBench()) console.log(line);
    return;
  }
  if (process.argv.includes('--agents')) {
    for (const line of await agentFilesBench()) console.log(line);
    return;
  }
  console.log(`Delegation bench: ${RUNS} runs after ${WARMUP} warm-up runs, medians (min–max); node ${process.version}`);
  const storeDir = mkdtempSync(join(tmpdir(), 'subagents-bench-store-'));
  const jsonlStore = (name: string): JsonlThreadStore => new JsonlThreadStore({ dir: join(storeDir, name) });
  const rows = [['scenario', 'floor: bare ai@7', 'ours: engine', 'ours/floor', 'ours + JSONL store', 'ours+JSONL/floor']];
  try {
    for (const { n, latencyMs } of SCENARIOS) {
      const columns = [
        floorScenario(n, latencyMs),
        engineScenario(n, latencyMs, new MemoryThreadStore()),
        engineScenario(n, latencyMs, jsonlStore(`${n}-${latencyMs}`)),
      ];
      for (let i = 0; i < WARMUP; i++) for (const run of columns) await run();
      const samples: number[][] = columns.map(() => []);
      for (let i = 0; i < RUNS; i++) for (const [c, run] of columns.entries()) samples[c]!.push(await time(run));
      const [f, o, j] = samples.map(summarize) as [Summary, Summary, Summary];
      const ratio = (s: Summary): string => `${(s.median / f.median).toFixed(2)} x`;
      rows.push([`${n} children, L = ${latencyMs} ms`, formatMs(f), formatMs(o), ratio(o), formatMs(j), ratio(j)]);
      console.log(`  done: ${rows.at(-1)![0]}`);
    }
    console.log(`\n${table(rows)}\n`);

    const floorKB = await retainedKB(floorScenario(3, 0));
    // This store keeps nothing, so what remains is the engine's own (registry, listeners, caches).
    const oursKB = await retainedKB(engineScenario(3, 0, new MemoryThreadStore({ keepEvents: false })));
    const jsonlKB = await retainedKB(engineScenario(3, 0, jsonlStore('memory')));
    if (floorKB === undefined || oursKB === undefined || jsonlKB === undefined) console.log('Retained memory: run with node --expose-gc to measure it.');
    else console.log(`Heap retained over ${RUNS} runs (3 children, L = 0): floor ${floorKB} KB, ours ${oursKB} KB, ours + JSONL store ${jsonlKB} KB (budget: under 512 KB)`);
    for (const line of await eventsAndStoreBench(5)) console.log(line);
    for (const line of await threadListBench(9)) console.log(line);
    for (const line of await agentFilesBench()) console.log(`\n${line}`);
    for (const line of await judgeBench()) console.log(line);
    for (const line of await commandBench()) console.log(line);
    for (const line of await mcpBench()) console.log(line);
    for (const line of await changesBench()) console.log(line);
    console.log('');
    for (const line of await webviewRenderBench()) console.log(line);
  } finally {
    rmSync(storeDir, { recursive: true, force: true });
  }
}

main().then(
  // sandbox-runtime keeps its network proxy open for the process's life: the bench ends here.
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
