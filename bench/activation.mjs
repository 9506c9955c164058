// Measures what activation costs: the size of each bundle in dist/, and the time of
// require('dist/extension.js') + activate() in fresh node processes (cold, as VS Code starts it),
// against a minimal stand-in for the `vscode` module that records nothing. Run by scripts/bench.mjs.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const dist = join(process.cwd(), 'dist');

// One cold activation; prints the milliseconds. The stand-in answers every API call with a
// disposable, which is all activate() needs.
const child = `
const Module = require('module');
const disposable = { dispose() {} };
const any = new Proxy(function () {}, { get: (_t, k) => (k === 'then' ? undefined : any), apply: () => disposable, construct: () => any });
const vscode = { window: any, commands: any, workspace: any, Uri: any, Disposable: any, EventEmitter: any, ConfigurationTarget: any };
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) { return request === 'vscode' ? 'vscode' : resolve.call(this, request, ...rest); };
require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: vscode };
const t0 = performance.now();
const ext = require(${JSON.stringify(join(dist, 'extension.js'))});
ext.activate({ subscriptions: [], extensionUri: {}, workspaceState: any, globalState: any, secrets: any });
process.stdout.write(String(performance.now() - t0));
`;

/** Minified sizes the lazily loaded bundles must stay under (DESIGN 11: heavy parts stay out of engine.js). */
const BUDGETS_KB = { 'mcp.js': 600, 'htmlToMarkdown.js': 350 };

export function activationBench(runs = 15) {
  const sizes = readdirSync(dist)
    .filter((f) => f.endsWith('.js'))
    .map((f) => {
      const kb = statSync(join(dist, f)).size / 1024;
      const budget = BUDGETS_KB[f];
      return `${f} ${kb.toFixed(1)} KB${budget ? ` (budget ${budget} KB: ${kb <= budget ? 'within' : 'OVER'})` : ''}`;
    });
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
