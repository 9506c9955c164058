#!/usr/bin/env node
// `npm run bench`: bundles bench/main.ts with esbuild, as the CLI is bundled, into a temp folder and runs it
// with --expose-gc. Extra arguments go to the bench (e.g. `npm run bench -- --runs 50`; `-- --webview`
// measures only the panel's rendering, on the production webview bundle built here).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
process.chdir(root);
if (!existsSync('node_modules/.package-lock.json')) {
  console.log('bench: node_modules is missing; running npm ci');
  if (spawnSync('npm', ['ci'], { stdio: 'inherit' }).status !== 0) process.exit(1);
}
const { build } = await import('esbuild');
// Inside the repository, so the bundle resolves what it loads at run time (the bash grammar) from node_modules.
mkdirSync(join(root, 'node_modules', '.cache'), { recursive: true });
const dir = mkdtempSync(join(root, 'node_modules', '.cache', 'subagents-bench-'));
const outfile = join(dir, 'bench.js');
try {
  // The bench is built as the CLI is (the same options, the lazy parts as bundles of their own
  // beside it): one bundle holding the ai SDK and the MCP SDK together breaks zod's module order.
  const { bundleOptions, copyRuntimeAssets, LAZY_BUNDLES } = await import('./bundles.mjs');
  const options = bundleOptions();
  const quiet = { outdir: dir, sourcemap: false, logLevel: 'warning' };
  await build({ ...options.cli, ...quiet, entryPoints: { bench: 'bench/main.ts' } });
  await Promise.all(Object.keys(LAZY_BUNDLES).map((name) => build({ ...options[name], ...quiet })));
  copyRuntimeAssets(dir);
  // SUBAGENTS_BENCH_WEBVIEW, when set, names another build to measure (a folder with webview.js
  // and webview.css, say an older commit's, for a before/after figure).
  let webviewDir = process.env.SUBAGENTS_BENCH_WEBVIEW;
  if (!webviewDir) {
    const { webview, webviewCss } = bundleOptions({ production: true });
    webviewDir = join(dir, 'webview');
    for (const options of [webview, webviewCss]) await build({ ...options, outdir: webviewDir, metafile: false });
  }
  const env = { ...process.env, SUBAGENTS_BENCH_WEBVIEW: webviewDir };
  const result = spawnSync(process.execPath, ['--expose-gc', outfile, ...process.argv.slice(2)], { stdio: 'inherit', env });
  process.exitCode = result.status ?? 1;
  if (existsSync('dist/extension.js')) {
    const { activationBench } = await import('../bench/activation.mjs');
    const a = activationBench();
    console.log(`\nBundles (dist/, as last built): ${a.sizes.join(', ')}`);
    console.log(`activate(): require + activate of dist/extension.js in a fresh process, median ${a.median.toFixed(1)} ms (${a.min.toFixed(1)}–${a.max.toFixed(1)}) over 15 runs`);
  } else {
    console.log('\nactivate(): dist/extension.js is missing; run `npm run build` (or `npm run package` for the minified sizes) first');
  }
} catch (error) {
  console.error(`bench: could not build bench/main.ts: ${error instanceof Error ? error.message : error}`);
  process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
