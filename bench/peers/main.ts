import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonlThreadStore } from '../../src/core/storage/threads/jsonlThreadStore';
import { MemoryThreadStore } from '../../src/core/storage/threads/memoryThreadStore';
import { engineScenario } from '../engineScenario';
import { floorScenario } from '../floor';
import { HEAP_WINDOWS, retainedKB, roundOrder, time, type Scenario } from '../measure';
import { childStreams, SUPERVISOR_ANSWER } from '../mockModels';
import { formatKB, formatMs, roundRatio, summarize, table, type Summary } from '../stats';
import { coldImportBench } from './coldImport';
import { floorAi6Scenario } from './floorAi6';
import { openaiAgentsScenario } from './openaiAgents';
import { voltAgentScenario } from './voltagent';
import { collectWarnings, type WarningLog } from './warnings';
import { formatFolderCosts, storeFolderCosts } from '../storeFolder';

// `npm run bench -- --peers`: the delegation scenario of bench/main.ts (a supervisor delegates one
// task to N subagents; each subagent's model waits L ms, then streams 50 text deltas) on bare ai@7,
// our engine (and its floor, bare ai@7 with the single-consumer stream the engine reads and as many
// tools per agent as ours get, which the SDK runs every part of a stream past), VoltAgent
// (and its floor, bare ai@6) and @openai/agents, all in this one process
// with the same mock models, the columns run alternately so noise from the rest of the machine
// hits them alike (each round runs every column once, in a fresh random order). Every ratio is to
// bare ai@7. Prints, never asserts. `--latency 0` runs only the scenarios of that latency.

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const RUNS = arg('--runs', 20);
// At L = 0 a run takes 10–80 ms and the rounds' ratios spread by ±0.15 on a 2-core machine: 20 rounds
// cannot tell 1.13× from 1.10×, 80 give intervals of about ±0.04 and cost a minute more.
const RUNS_AT_0 = arg('--runs-at-0', 80);
const runsAt = (latencyMs: number): number => (latencyMs === 0 ? RUNS_AT_0 : RUNS);
const WARMUP = arg('--warmup', 5);
const IMPORT_RUNS = arg('--import-runs', 7);
const ALL_SCENARIOS = [
  { n: 3, latencyMs: 0 },
  { n: 8, latencyMs: 0 },
  { n: 3, latencyMs: 200 },
  { n: 8, latencyMs: 200 },
];
const LATENCY = process.argv.includes('--latency') ? arg('--latency', NaN) : undefined;
const SCENARIOS = ALL_SCENARIOS.filter((s) => LATENCY === undefined || s.latencyMs === LATENCY);
if (SCENARIOS.length === 0) {
  console.error(
    `bench: --latency takes one of the scenarios' latencies (${[...new Set(ALL_SCENARIOS.map((s) => s.latencyMs))].join(' or ')}), not "${process.argv[process.argv.indexOf('--latency') + 1] ?? ''}"`,
  );
  process.exit(2);
}

/** The installed version of a package: the peers' from bench/peers/node_modules, ai@7 from the project's. */
const version = (pkg: string, peer = true): string =>
  (
    JSON.parse(readFileSync(join(process.cwd(), ...(peer ? ['bench', 'peers'] : []), 'node_modules', pkg, 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;

interface Column {
  name: string;
  /** The column this one is also measured against: VoltAgent's floor is ai@6; ours is ai@7 read as we read it (a single consumer). */
  floor?: string;
  make: (n: number, latencyMs: number) => Scenario;
  /** For the heap figure: the same framework, 3 children, L = 0. */
  heap: () => Scenario;
}

/** One run, checked: the supervisor's answer came back and every child's model streamed. */
async function checked(column: Column, n: number, run: Scenario): Promise<void> {
  warnings.column(column.name);
  const before = childStreams.count;
  const answer = await run();
  const children = childStreams.count - before;
  if (answer !== SUPERVISOR_ANSWER.join('') || children !== n) {
    throw new Error(`${column.name} did not run the scenario: ${children} of ${n} children streamed, answer ${JSON.stringify(answer)}`);
  }
}

const warnings: WarningLog = collectWarnings();

async function main(): Promise<void> {
  const storeDir = mkdtempSync(join(tmpdir(), 'subagents-bench-peers-'));
  const jsonl = (name: string): JsonlThreadStore => new JsonlThreadStore({ dir: join(storeDir, name) });
  const ai7 = `bare ai@${version('ai', false)}`;
  const ai6 = `bare ai@${version('ai')}`;
  // Ours reads the SDK's single-consumer stream; this floor does too, so "x own floor" is our cost over the best ai@7 can do.
  const ai7once = `${ai7}, single-consumer stream`;
  // The same, with as many tools per agent as ours get and the children in a multi-step loop: what
  // ai@7 itself costs for the work our agents are given (bench/floor.ts), so "x own floor" is ours alone.
  const ai7tools = `${ai7}, single-consumer, tools as ours`;
  const columns: Column[] = [
    { name: ai7, make: floorScenario, heap: () => floorScenario(3, 0) },
    {
      name: ai7once,
      make: (n, l) => floorScenario(n, l, { singleConsumer: true }),
      heap: () => floorScenario(3, 0, { singleConsumer: true }),
    },
    {
      name: ai7tools,
      make: (n, l) => floorScenario(n, l, { singleConsumer: true, toolsLikeOurs: true }),
      heap: () => floorScenario(3, 0, { singleConsumer: true, toolsLikeOurs: true }),
    },
    // The heap figure of the memory store keeps no events, so what remains is the engine's own.
    {
      name: 'ours, store in memory',
      floor: ai7tools,
      make: (n, l) => engineScenario(n, l, new MemoryThreadStore()),
      heap: () => engineScenario(3, 0, new MemoryThreadStore({ keepEvents: false })),
    },
    {
      name: 'ours, JSONL store',
      floor: ai7tools,
      make: (n, l) => engineScenario(n, l, jsonl(`${n}-${l}`)),
      heap: () => engineScenario(3, 0, jsonl('heap')),
    },
    { name: ai6, make: floorAi6Scenario, heap: () => floorAi6Scenario(3, 0) },
    { name: `VoltAgent ${version('@voltagent/core')}`, floor: ai6, make: voltAgentScenario, heap: () => voltAgentScenario(3, 0) },
    { name: `@openai/agents ${version('@openai/agents')}`, make: openaiAgentsScenario, heap: () => openaiAgentsScenario(3, 0) },
  ];
  console.log(
    `Peer bench: ${RUNS_AT_0} runs at L = 0 and ${RUNS} at L = 200 ms, after ${WARMUP} warm-up runs, each round running every column once in a fresh random order, medians (min–max); node ${process.version}, NODE_ENV=${process.env.NODE_ENV ?? ''}`,
  );
  const detail = [['scenario', 'framework', 'wall time', `x ${ai7}`, 'x own floor']];
  const header = ['framework', ...SCENARIOS.map(({ n, latencyMs }) => `${n} ch, L=${latencyMs}`)];
  const ratios = [header, ...columns.map((c) => [c.name])];
  // Each column's rounds' own ratios to bare ai@7 (stats.ts roundRatio).
  const paired = [header, ...columns.map((c) => [c.name])];
  try {
    for (const { n, latencyMs } of SCENARIOS) {
      const runs = columns.map((c) => c.make(n, latencyMs));
      for (const [c, run] of runs.entries()) await checked(columns[c]!, n, run);
      const go = async (c: number): Promise<number> => {
        warnings.column(columns[c]!.name);
        return time(runs[c]!);
      };
      for (let i = 1; i < WARMUP; i++) for (const c of roundOrder(runs.length)) await go(c);
      const samples: number[][] = runs.map(() => []);
      for (let i = 0; i < runsAt(latencyMs); i++) for (const c of roundOrder(runs.length)) samples[c]!.push(await go(c));
      const summaries = samples.map(summarize);
      const byName = new Map(columns.map((c, i): [string, Summary] => [c.name, summaries[i]!]));
      const floor = summaries[0]!;
      for (const [c, column] of columns.entries()) {
        const s = summaries[c]!;
        const own = column.floor ? `${(s.median / byName.get(column.floor)!.median).toFixed(2)} x ${column.floor}` : '';
        const ratio = `${(s.median / floor.median).toFixed(2)} x`;
        detail.push([c === 0 ? `${n} children, L = ${latencyMs} ms` : '', column.name, formatMs(s), ratio, own]);
        ratios[c + 1]!.push(ratio);
        paired[c + 1]!.push(c === 0 ? '1.00 x' : roundRatio(samples[c]!, samples[0]!));
      }
      console.log(`  done: ${n} children, L = ${latencyMs} ms`);
    }
    console.log(`\n${table(detail)}\n\nEach median as a ratio to ${ai7}:\n\n${table(ratios)}\n`);
    console.log(
      `The median of each round's ratio to ${ai7} (a round runs every column once, back to back), with its 95 % confidence interval:\n\n${table(paired)}\n`,
    );
    console.log(`${formatFolderCosts(`under os.tmpdir(), ${storeDir}`, await storeFolderCosts(join(storeDir, 'probe')))}\n`);

    const heap: string[] = [];
    for (const column of columns) {
      warnings.column(column.name);
      const kb = await retainedKB(column.heap(), RUNS, WARMUP);
      heap.push(`${column.name} ${kb === undefined ? '(run with --expose-gc)' : formatKB(kb)}`);
    }
    console.log(
      `Heap retained per ${RUNS} runs (3 children, L = 0), after ${WARMUP} warm-up runs, median (min–max) of ${HEAP_WINDOWS} windows of ${RUNS} runs in a row: ${heap.join(', ')}\n`,
    );
    const warned = warnings.lines();
    if (warned.length > 0) console.log(`Warnings printed during the runs (counted, not shown then):\n${warned.join('\n')}\n`);
    for (const line of await coldImportBench(process.cwd(), IMPORT_RUNS)) console.log(line);
  } finally {
    rmSync(storeDir, { recursive: true, force: true });
  }
}

// Exit when done: whatever a framework leaves running (a timer, an exporter) must not keep the bench alive.
main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
