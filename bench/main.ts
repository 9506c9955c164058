import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonlThreadStore } from '../src/core/storage/threads/jsonlThreadStore';
import { engineScenario } from './engineScenario';
import { eventsAndStoreBench } from './eventsAndStore';
import { threadListBench } from './threadList';
import { floorScenario } from './floor';
import { judgeBench } from './judgeBench';
import { commandBench } from './commandBench';
import { hookBench } from './hookBench';
import { mcpBench } from './mcpBench';
import { searchBench, searchProfile, searchTreeBench } from './searchBench';
import { aiLikeTree } from './aiLikeTree';
import { changesBench } from './changesBench';
import { MemoryThreadStore } from '../src/core/storage/threads/memoryThreadStore';
import { formatKB, formatMs, roundRatio, summarize, table, type Summary } from './stats';
import { agentCorpus } from './agentCorpus';
import { agentFilesBench } from './agentFiles';
import { webviewRenderBench } from './webviewRender';
import { HEAP_WINDOWS, retainedKB, roundOrder, time, type Scenario } from './measure';
import { hotPathBench } from './hotPath';
import { emptyTotals, perRun, profileByOrigin, type ProfileTotals } from './cpuProfile';
import { cancelChildBench } from './cancelChild';
import { formatFolderCosts, storeFolderCosts } from './storeFolder';
import { promptBench } from './promptSizes';
import { tracesBench } from './tracesBench';

// `npm run bench`: the delegation scenario (docs/performance.md). A supervisor delegates one task to
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

/** The folder `--tree` names, and what it holds. */
function treeArg(): { root: string; what: string } | undefined {
  const i = process.argv.indexOf('--tree');
  if (i < 0) return undefined;
  const dir = process.argv[i + 1];
  if (!dir || dir.startsWith('--')) throw new Error('--tree needs a folder (or `ai-like` for the stand-in of the ai SDK repository)');
  if (dir === 'ai-like') return aiLikeTree();
  return { root: dir, what: 'a folder given with --tree' };
}

async function main(): Promise<void> {
  const corpus = process.argv.indexOf('--corpus');
  if (corpus >= 0) return agentCorpus(process.argv[corpus + 1]!);
  if (process.argv.includes('--webview')) {
    for (const line of await webviewRenderBench()) console.log(line);
    return;
  }
  // `--tree DIR`: the search rows on that folder as it is; `--tree ai-like`: on the stand-in for issue 15's repository (made once, bench/aiLikeTree.ts).
  const tree = treeArg();
  if (process.argv.includes('--search') && process.argv.includes('--profile')) {
    for (const line of await searchProfile(arg('--runs', 40), tree?.root)) console.log(line);
    return;
  }
  if (process.argv.includes('--profile')) return profile();
  if (process.argv.includes('--cancel')) {
    for (const line of await cancelChildBench(arg('--runs', 5))) console.log(line);
    return;
  }
  if (process.argv.includes('--search')) {
    for (const line of tree ? await searchTreeBench(tree.root, tree.what, arg('--runs', 10)) : await searchBench(RUNS)) console.log(line);
    return;
  }
  if (process.argv.includes('--prompt')) {
    for (const line of await promptBench()) console.log(line);
    return;
  }
  if (process.argv.includes('--traces')) {
    for (const line of await tracesBench(arg('--runs', 30))) console.log(line);
    return;
  }
  if (process.argv.includes('--changes')) {
    for (const line of await changesBench()) console.log(line);
    return;
  }
  if (process.argv.includes('--hooks')) {
    for (const line of await commandBench(arg('--runs', 20))) console.log(line);
    for (const line of await hookBench(arg('--runs', 20))) console.log(line);
    return;
  }
  if (process.argv.includes('--agents')) {
    for (const line of await agentFilesBench()) console.log(line);
    return;
  }
  console.log(
    `Delegation bench: ${RUNS} runs after ${WARMUP} warm-up runs, the columns in a fresh random order each round, medians (min–max); node ${process.version}`,
  );
  const storeDir = mkdtempSync(join(tmpdir(), 'subagents-bench-store-'));
  const jsonlStore = (name: string): JsonlThreadStore => new JsonlThreadStore({ dir: join(storeDir, name) });
  // Each ratio twice: of the medians, and the median of the rounds' own ratios with its 95 % interval.
  const rows = [
    ['scenario', 'floor: bare ai@7', 'ours: engine', 'ours/floor', 'per round', 'ours + JSONL store', 'ours+JSONL/floor', 'per round'],
  ];
  try {
    for (const { n, latencyMs } of SCENARIOS) {
      const columns = [
        floorScenario(n, latencyMs),
        engineScenario(n, latencyMs, new MemoryThreadStore()),
        engineScenario(n, latencyMs, jsonlStore(`${n}-${latencyMs}`)),
      ];
      for (let i = 0; i < WARMUP; i++) for (const run of columns) await run();
      const samples: number[][] = columns.map(() => []);
      for (let i = 0; i < RUNS; i++) for (const c of roundOrder(columns.length)) samples[c]!.push(await time(columns[c]!));
      const [f, o, j] = samples.map(summarize) as [Summary, Summary, Summary];
      const ratio = (s: Summary): string => `${(s.median / f.median).toFixed(2)} x`;
      const [floorMs, oursMs, jsonlMs] = samples as [number[], number[], number[]];
      rows.push([
        `${n} children, L = ${latencyMs} ms`,
        formatMs(f),
        formatMs(o),
        ratio(o),
        roundRatio(oursMs, floorMs),
        formatMs(j),
        ratio(j),
        roundRatio(jsonlMs, floorMs),
      ]);
      console.log(`  done: ${rows.at(-1)![0]}`);
    }
    console.log(`\n${table(rows)}\n`);
    console.log(`${formatFolderCosts(`under os.tmpdir(), ${storeDir}`, await storeFolderCosts(join(storeDir, 'probe')))}\n`);

    const floorKB = await retainedKB(floorScenario(3, 0), RUNS, WARMUP);
    // This store keeps nothing, so what remains is the engine's own (registry, listeners, caches).
    const oursKB = await retainedKB(engineScenario(3, 0, new MemoryThreadStore({ keepEvents: false })), RUNS, WARMUP);
    const jsonlKB = await retainedKB(engineScenario(3, 0, jsonlStore('memory')), RUNS, WARMUP);
    if (floorKB === undefined || oursKB === undefined || jsonlKB === undefined)
      console.log('Retained memory: run with node --expose-gc to measure it.');
    else
      console.log(
        `Heap retained per ${RUNS} runs (3 children, L = 0), median (min–max) of ${HEAP_WINDOWS} windows of ${RUNS} runs in a row: floor ${formatKB(floorKB)}, ours ${formatKB(oursKB)}, ours + JSONL store ${formatKB(jsonlKB)} (budget: under 512 KB)`,
      );
    for (const line of await eventsAndStoreBench(5)) console.log(line);
    for (const line of await promptBench()) console.log(line);
    for (const line of await threadListBench(9)) console.log(line);
    for (const line of await agentFilesBench()) console.log(`\n${line}`);
    for (const line of await judgeBench()) console.log(line);
    for (const line of await commandBench()) console.log(line);
    for (const line of await hookBench()) console.log(line);
    for (const line of await mcpBench()) console.log(line);
    for (const line of await searchBench()) console.log(line);
    for (const line of await changesBench()) console.log(line);
    console.log('');
    for (const line of await webviewRenderBench()) console.log(line);
    for (const line of await cancelChildBench(5)) console.log(line);
  } finally {
    rmSync(storeDir, { recursive: true, force: true });
  }
}

/** `--profile`: the hot path's pieces alone, then where a run's CPU time goes, by origin. */
async function profile(): Promise<void> {
  for (const line of await hotPathBench()) console.log(line);
  const storeDir = mkdtempSync(join(tmpdir(), 'subagents-bench-profile-'));
  try {
    const rounds = 5;
    const runs = Math.max(1, Math.round(arg('--profile-runs', 100) / rounds));
    const scenarios: [string, Scenario, ProfileTotals][] = [
      ['bare ai@7', floorScenario(3, 0), emptyTotals()],
      ['ours, store in memory', engineScenario(3, 0, new MemoryThreadStore({ keepEvents: false })), emptyTotals()],
      ['ours, JSONL store', engineScenario(3, 0, new JsonlThreadStore({ dir: storeDir })), emptyTotals()],
    ];
    for (const [, run] of scenarios) for (let i = 0; i < WARMUP * 2; i++) await run();
    // In rounds, so a change in the machine's load reaches every scenario alike.
    for (let r = 0; r < rounds; r++) for (const [, run, totals] of scenarios) await profileByOrigin(run, runs, totals);
    for (const [name, , totals] of scenarios) {
      const buckets = perRun(totals.buckets, totals.runs);
      const busy = buckets.filter(([b]) => !b.startsWith('idle')).reduce((sum, [, v]) => sum + v, 0);
      const rows = [['where', 'ms per run', 'share of CPU']];
      for (const [bucket, v] of buckets.slice(0, 16))
        rows.push([bucket, v.toFixed(3), bucket.startsWith('idle') ? '' : `${((v / busy) * 100).toFixed(1)} %`]);
      const ours = perRun(totals.ours, totals.runs)
        .slice(0, 8)
        .map(([f, v]) => `${f} ${(v * 1000).toFixed(0)} µs`);
      console.log(
        `\nCPU profile, ${name}, 3 children, L = 0: ${totals.runs} runs in ${rounds} rounds, ${(totals.wallMs / totals.runs).toFixed(2)} ms a run (profiler on), ${busy.toFixed(2)} ms of it CPU:\n${table(rows)}`,
      );
      if (ours.length) console.log(`Our hottest functions (self time a run): ${ours.join('; ')}`);
    }
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
