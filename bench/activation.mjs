// Measures what activation costs: the size of each bundle in dist/, and the time of
// require('dist/extension.js') + activate() in fresh node processes (cold, as VS Code starts it),
// against a minimal stand-in for the `vscode` module that records nothing. Run by scripts/bench.mjs.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const dist = join(process.cwd(), 'dist');

// Every top-level name of the vscode API (from @types/vscode): the stand-in answers each alike, so
// activation may touch any namespace (vscode.chat, vscode.lm…) as the real one allows.
const apiNames = [...new Set([...readFileSync(join(process.cwd(), 'node_modules', '@types', 'vscode', 'index.d.ts'), 'utf8').matchAll(/^\texport (?:namespace|class|enum|function|const|let) (\w+)/gm)].map((m) => m[1]))];

// One cold activation; prints the milliseconds. The stand-in answers every API call with a
// disposable, which is all activate() needs.
const child = `
const Module = require('module');
const disposable = { dispose() {} };
const any = new Proxy(function () {}, { get: (_t, k) => (k === 'then' ? undefined : any), apply: () => disposable, construct: () => any });
const vscode = Object.fromEntries(${JSON.stringify(apiNames)}.map((n) => [n, any]));
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) { return request === 'vscode' ? 'vscode' : resolve.call(this, request, ...rest); };
require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: vscode };
const t0 = performance.now();
const ext = require(${JSON.stringify(join(dist, 'extension.js'))});
ext.activate({ subscriptions: [], extensionUri: {}, workspaceState: any, globalState: any, secrets: any });
process.stdout.write(String(performance.now() - t0));
`;

// The load of dist/engine.js alone (what the panel's first request waits for), with the same stand-in.
const engineChild = child.replace(/const ext = require\(.*\);\n.*\n/, `require(${JSON.stringify(join(dist, 'engine.js'))});\n`);

const median = (times) => {
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], min: times[0], max: times.at(-1) };
};

const fresh = (code, runs) => {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const r = spawnSync(process.execPath, ['-e', code], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`a cold load failed: ${r.stderr.split('\n').slice(-12).join('\n')}`);
    times.push(Number(r.stdout));
  }
  return median(times);
};

/** Each bundle's size beside its budget (SIZE_BUDGETS_KB), and the cold load of engine.js. */
export async function bundleBench(runs = 15) {
  const { SIZE_BUDGETS_KB } = await import('../scripts/bundles.mjs');
  const sizes = readdirSync(dist)
    .filter((f) => f.endsWith('.js'))
    .map((f) => {
      const kb = statSync(join(dist, f)).size / 1024;
      const budget = SIZE_BUDGETS_KB[f.slice(0, -3)];
      return `${f} ${kb.toFixed(1)} KB${budget ? ` (budget ${budget} KB${kb > budget ? ', OVER' : ''})` : ''}`;
    });
  return { sizes, engineLoad: fresh(engineChild, runs) };
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
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  return { sizes, median, min: times[0], max: times.at(-1) };
}
