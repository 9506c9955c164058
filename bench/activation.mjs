// Measures what activation costs: the size of each bundle in dist/, and the time of
// require('dist/extension.js') + activate() in fresh node processes (cold, as VS Code starts it),
// against a minimal stand-in for the `vscode` module that records nothing. Run by scripts/bench.mjs.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vscodeStandInSource } from '../scripts/vscodeStandIn.mjs';
import { medianOf } from './medians.mjs';

const dist = join(process.cwd(), 'dist');

const standIn = vscodeStandInSource(process.cwd());

// One cold activation; prints the milliseconds. The stand-in answers every API call with a
// disposable, which is all activate() needs.
const child = `${standIn}
const t0 = performance.now();
const ext = require(${JSON.stringify(join(dist, 'extension.js'))});
ext.activate({ subscriptions: [], extensionUri: {}, workspaceState: any, globalState: any, secrets: any });
process.stdout.write(String(performance.now() - t0));
`;

// The load of dist/engine.js alone (what the panel's first request waits for), with the same
// stand-in; then, for a lazy bundle, its own load after engine.js's (what the first agent file, the
// first vendor model call… adds). Prints the milliseconds of the last require and the files
// required besides the ones named, so a lazy bundle that engine.js loads at once is seen.
const loadChild = (files) => `${standIn}
const named = ${JSON.stringify(files)};
for (const f of named.slice(0, -1)) require(f);
const t0 = performance.now();
require(named.at(-1));
const ms = performance.now() - t0;
process.stdout.write(JSON.stringify({ ms, others: Object.keys(require.cache).filter((f) => f !== 'vscode' && f.startsWith(${JSON.stringify(dist)}) && !named.includes(f)) }));
`;

/** Fresh processes for each of `targets` (name → files to require, the last one timed), alternating so noise hits all alike. */
const fresh = (targets, runs) => {
  const samples = Object.fromEntries(Object.keys(targets).map((name) => [name, { times: [], others: new Set() }]));
  for (let i = 0; i < runs; i++) {
    for (const [name, files] of Object.entries(targets)) {
      const r = spawnSync(process.execPath, ['-e', loadChild(files)], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`a cold load of ${name} failed: ${r.stderr.split('\n').slice(-12).join('\n')}`);
      const { ms, others } = JSON.parse(r.stdout);
      samples[name].times.push(ms);
      for (const f of others) samples[name].others.add(f.slice(dist.length + 1));
    }
  }
  return Object.fromEntries(
    Object.entries(samples).map(([name, { times, others }]) => [name, { ...medianOf(times), others: [...others] }]),
  );
};

/**
 * Each bundle's size beside its budget (SIZE_BUDGETS_KB); the cold load of engine.js; and each lazy
 * bundle's size and its load on top of engine.js's.
 */
export async function bundleBench(runs = 15) {
  const { SIZE_BUDGETS_KB, LAZY_BUNDLES } = await import('../scripts/bundles.mjs');
  const kb = (f) => statSync(join(dist, f)).size / 1024;
  const sizes = readdirSync(dist)
    .filter((f) => f.endsWith('.js'))
    .map((f) => {
      const budget = SIZE_BUDGETS_KB[f.slice(0, -3)];
      return `${f} ${kb(f).toFixed(1)} KB${budget ? ` (budget ${budget} KB${kb(f) > budget ? ', OVER' : ''})` : ''}`;
    });
  const engine = join(dist, 'engine.js');
  const lazy = Object.keys(LAZY_BUNDLES);
  const loads = fresh({ engine: [engine], ...Object.fromEntries(lazy.map((name) => [name, [engine, join(dist, `${name}.js`)]])) }, runs);
  const { engine: engineLoad, ...lazyLoads } = loads;
  return {
    sizes,
    engineKB: kb('engine.js'),
    engineLoad,
    cached: await codeCacheLoads(engine, lazy, runs),
    lazy: Object.fromEntries(lazy.map((name) => [name, { kb: kb(`${name}.js`), load: lazyLoads[name] }])),
  };
}

export function activationBench(runs = 15) {
  const sizes = readdirSync(dist)
    .filter((f) => f.endsWith('.js'))
    .map((f) => `${f} ${(statSync(join(dist, f)).size / 1024).toFixed(1)} KB`);
  const times = [];
  for (let i = 0; i < runs; i++) {
    const r = spawnSync(process.execPath, ['-e', child], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`activation run failed: ${r.stderr}`);
    times.push(Number(r.stdout));
  }
  return { sizes, ...medianOf(times) };
}

/**
 * engine.js and each lazy bundle loaded as the extension loads them (src/core/platform/codeCache/), in
 * fresh processes, alternating: without a cache (a first window: the hash and the compile) and
 * with the caches a first load wrote (every later window). A lazy bundle's load is timed after
 * engine.js's, as the first run needing it loads it.
 */
async function codeCacheLoads(engine, lazy, runs) {
  const { build } = await import('esbuild');
  const work = mkdtempSync(join(tmpdir(), 'subagents-code-cache-'));
  try {
    await build({
      entryPoints: ['src/core/platform/codeCache/requireWithCodeCache.ts'],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      outfile: join(work, 'loader.js'),
      logLevel: 'error',
    });
    const child = (files, cacheDir) => `${standIn}
const { requireWithCodeCache } = require(${JSON.stringify(join(work, 'loader.js'))});
const options = { cacheDir: ${JSON.stringify(cacheDir)}, onProblem: (m) => { throw new Error(m); } };
const files = ${JSON.stringify(files)};
const loads = files.map((f, i) => {
  const t0 = performance.now();
  const loaded = requireWithCodeCache(f, options);
  return { ms: performance.now() - t0, loaded };
});
Promise.all(loads.map(({ loaded }) => loaded.flush())).then(() => process.stdout.write(JSON.stringify({ ms: loads.at(-1).ms, cache: loads.at(-1).loaded.cache })));
`;
    const once = (files, cacheDir) => {
      const r = spawnSync(process.execPath, ['-e', child(files, cacheDir)], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`a load through the code cache failed: ${r.stderr.split('\n').slice(-12).join('\n')}`);
      return JSON.parse(r.stdout);
    };
    const targets = { engine: [engine], ...Object.fromEntries(lazy.map((name) => [name, [engine, join(dist, `${name}.js`)]])) };
    const warmDir = join(work, 'warm');
    for (const files of Object.values(targets)) once(files, warmDir);
    const samples = Object.fromEntries(Object.keys(targets).map((name) => [name, { cold: [], warm: [] }]));
    for (let i = 0; i < runs; i++) {
      for (const [name, files] of Object.entries(targets)) {
        const c = once(files, join(work, `cold-${name}-${i}`));
        const w = once(files, warmDir);
        // `off`: its code holds import(), so Node's loader requires it (bashParser.js).
        const off = c.cache === 'off' && w.cache === 'off';
        if (!off && (c.cache !== 'none' || w.cache !== 'used'))
          throw new Error(`the code cache of ${name} was not used as expected: ${c.cache}, ${w.cache}`);
        samples[name].off = off;
        samples[name].cold.push(c.ms);
        samples[name].warm.push(w.ms);
      }
    }
    return Object.fromEntries(
      Object.entries(samples).map(([name, { cold, warm, off }]) => [name, { cold: medianOf(cold), warm: medianOf(warm), off }]),
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
