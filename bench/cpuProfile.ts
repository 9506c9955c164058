import { Session } from 'node:inspector/promises';
import { findSourceMap } from 'node:module';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Scenario } from './measure';

// A CPU profile of real runs, its self time summed by where the code comes from (our folders, zod,
// the ai SDK, the lock library, node itself), through the bench bundle's source map. Native frames
// (JSON.stringify, promise machinery) count for the JavaScript that called them. Needs the bundle
// built with a source map and node started with --enable-source-maps (scripts/bench.mjs does both
// for --profile).

interface ProfileNode {
  id: number;
  callFrame: { url: string; lineNumber: number; columnNumber: number; functionName: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const root = process.cwd();

/** The bucket of one original source file. */
function bucketOf(source: string): string {
  const path = source.startsWith('file:') ? relative(root, fileURLToPath(source)) : source;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1];
  if (pkg) {
    if (pkg === 'ai' || pkg.startsWith('@ai-sdk/')) return 'the ai SDK (ai, @ai-sdk/*)';
    if (pkg === 'zod') return 'zod';
    return pkg;
  }
  if (path.startsWith('src/core/threads/')) return 'our store (src/core/threads)';
  if (path.startsWith('src/core/models/resilientModel')) return 'our resilience wrapper (resilientModel.ts)';
  const ours = /^(src\/[^/]+(?:\/[^/]+)?)\//.exec(path)?.[1] ?? /^(src\/[^/]+)/.exec(path)?.[1];
  if (ours) return `our ${ours}`;
  if (path.startsWith('bench/')) return 'the bench harness';
  return path;
}

/** Node's own JavaScript, by what it does. */
function nodeBucket(url: string): string {
  if (url.includes('/webstreams/')) return 'node: web streams (ReadableStream and friends)';
  if (url.includes('/fs/') || url.endsWith('/fs')) return 'node: fs';
  if (url.includes('child_process')) return 'node: child processes (spawn)';
  if (url.includes('timers') || url.includes('task_queues')) return 'node: timers, microtask and tick queues';
  if (url.includes('/abort_controller') || url.includes('/event_target')) return 'node: AbortSignal and EventTarget';
  return 'node: other built-ins';
}

export interface ProfileTotals {
  runs: number;
  wallMs: number;
  /** Self time in ms, by bucket. */
  buckets: Map<string, number>;
  /** Self time in ms of our own functions, by `function (file:line)`. */
  ours: Map<string, number>;
}

export const emptyTotals = (): ProfileTotals => ({ runs: 0, wallMs: 0, buckets: new Map(), ours: new Map() });

const add = (map: Map<string, number>, key: string, ms: number): void => void map.set(key, (map.get(key) ?? 0) + ms);

/** Profiles `runs` runs of `scenario` and adds their self time, by bucket, to `totals`. */
export async function profileByOrigin(scenario: Scenario, runs: number, totals: ProfileTotals): Promise<void> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) await scenario();
  const wall = performance.now() - t0;
  const { profile } = (await session.post('Profiler.stop')) as { profile: Profile };
  session.disconnect();

  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const cache = new Map<number, string>();
  const ownFunction = new Map<number, string>();
  const bucketOfNode = (id: number): string => {
    const known = cache.get(id);
    if (known) return known;
    const node = byId.get(id)!;
    const { url, lineNumber, columnNumber, functionName } = node.callFrame;
    let bucket: string;
    if (functionName === '(garbage collector)') bucket = 'garbage collection';
    else if (functionName === '(idle)') bucket = 'idle (waiting for I/O or timers)';
    else if (functionName === '(program)') bucket = 'node and V8 outside JavaScript';
    else if (url.startsWith('node:')) bucket = nodeBucket(url);
    else if (url) {
      const entry = findSourceMap(url)?.findEntry(lineNumber, columnNumber);
      bucket = entry && 'originalSource' in entry ? bucketOf(entry.originalSource) : bucketOf(url);
      if (entry && 'originalSource' in entry && bucket.startsWith('our')) {
        const file = relative(root, fileURLToPath(entry.originalSource)).replace(/^src\/core\//, '');
        ownFunction.set(id, `${functionName || '(anonymous)'} (${file}:${entry.originalLine + 1})`);
      }
    } else {
      const up = parent.get(id);
      bucket = up === undefined ? 'node and V8 outside JavaScript' : bucketOfNode(up);
    }
    cache.set(id, bucket);
    return bucket;
  };
  for (const [i, id] of profile.samples.entries()) {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    add(totals.buckets, bucketOfNode(id), ms);
    const own = ownFunction.get(id);
    if (own) add(totals.ours, own, ms);
  }
  totals.runs += runs;
  totals.wallMs += wall;
}

/** The map's entries in ms per run, largest first. */
export const perRun = (map: Map<string, number>, runs: number): [string, number][] =>
  [...map].map(([k, v]): [string, number] => [k, v / runs]).sort((a, b) => b[1] - a[1]);
