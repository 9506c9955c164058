#!/usr/bin/env node
// `npm run bench`: bundles bench/main.ts with esbuild, as the CLI is bundled, into a temp folder and runs it
// with --expose-gc. Extra arguments go to the bench (e.g. `npm run bench -- --runs 50`; `-- --webview`
// measures only the panel's rendering, on the production webview bundle built here).
// `npm run bench -- --peers`: the same delegation scenario beside the peer frameworks, which live
// in bench/peers/ with their own package.json and lock file: installed there on first use (never
// in the project's dependencies), type-checked, bundled from bench/peers/main.ts so that each file
// resolves its own `ai` (bench/peers/ from bench/peers/node_modules), then their cold imports.
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
process.chdir(root);
const peers = process.argv.includes('--peers');
// The CPU profile maps the bundle back to its sources (bench/cpuProfile.ts).
const profile = process.argv.includes('--profile');
const args = process.argv.slice(2).filter((a) => a !== '--peers');

/** Runs `npm ci` in `dir` when its node_modules is missing or older than its lock file. */
function ensureInstalled(dir) {
  const installed = join(dir, 'node_modules', '.package-lock.json');
  if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(join(dir, 'package-lock.json')).mtimeMs) return;
  // A worktree that borrows another checkout's node_modules through a link: `npm ci` would empty that one.
  if (existsSync(join(dir, 'node_modules')) && lstatSync(join(dir, 'node_modules')).isSymbolicLink()) {
    console.log(`bench: ${dir}/node_modules is a link to another checkout's; not reinstalling it (run npm ci there if it is stale)`);
    return;
  }
  console.log(`bench: installing ${dir === '.' ? "the project's dependencies" : `the peer frameworks into ${dir}/node_modules`} (npm ci)`);
  if (spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' }).status !== 0) process.exit(1);
}

ensureInstalled('.');
if (peers) {
  ensureInstalled('bench/peers');
  // The peers' files are outside the project's typecheck (their `ai` is not installed there): check them here.
  const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'bench/peers', '--noEmit'], { stdio: 'inherit' });
  if (tsc.status !== 0) {
    console.error('bench: bench/peers does not type-check against the installed peers (see above)');
    process.exit(1);
  }
}
const { build } = await import('esbuild');
// Inside the repository, so the bundle resolves what it loads at run time (the bash grammar) from
// node_modules; the peers' bundle inside bench/peers/node_modules, so theirs come first.
const cache = join(root, ...(peers ? ['bench', 'peers'] : []), 'node_modules', '.cache');
mkdirSync(cache, { recursive: true });
const dir = mkdtempSync(join(cache, 'subagents-bench-'));
const outfile = join(dir, peers ? 'bench.mjs' : 'bench.js');
const entry = peers ? 'bench/peers/main.ts' : 'bench/main.ts';
try {
  const { bundleOptions, copyRuntimeAssets, LAZY_BUNDLES } = await import('./bundles.mjs');
  if (peers) {
    // ESM (the peers' packages are ESM-only), one file, each import resolving its own `ai`.
    await build({
      entryPoints: [entry],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      outfile,
      logLevel: 'warning',
      // The peer bench builds its cold-import bundles with esbuild, which runs from its own package.
      external: ['esbuild'],
      // Prefer a package's ESM build, as bundles.mjs does: jsonc-parser's UMD build hides its modules from the bundler.
      mainFields: ['module', 'main'],
      // tree-sitter's UMD build finds itself through __filename, which ESM lacks.
      banner: {
        js: "import { createRequire as __createRequire } from 'node:module'; import { fileURLToPath as __toPath } from 'node:url'; const require = __createRequire(import.meta.url); const __filename = __toPath(import.meta.url);",
      },
    });
  } else {
    // The bench is built as the CLI is (the same options, the lazy parts as bundles of their own
    // beside it): one bundle holding the ai SDK and the MCP SDK together breaks zod's module order.
    const options = bundleOptions();
    const quiet = { outdir: dir, sourcemap: profile ? 'linked' : false, logLevel: 'warning' };
    await build({ ...options.cliMain, ...quiet, entryPoints: { bench: entry } });
    await Promise.all(Object.keys(LAZY_BUNDLES).map((name) => build({ ...options[name], ...quiet })));
    copyRuntimeAssets(dir);
  }
  // SUBAGENTS_BENCH_WEBVIEW, when set, names another build to measure (a folder with webview.js
  // and webview.css, say an older commit's, for a before/after figure).
  let webviewDir = process.env.SUBAGENTS_BENCH_WEBVIEW;
  if (!webviewDir && !peers) {
    const { webview, webviewCss } = bundleOptions({ production: true });
    webviewDir = join(dir, 'webview');
    for (const options of [webview, webviewCss]) await build({ ...options, outdir: webviewDir, metafile: false });
  }
  // VoltAgent fetches a model list on import unless NODE_ENV is production; the same for every column.
  const env = {
    ...process.env,
    ...(webviewDir ? { SUBAGENTS_BENCH_WEBVIEW: webviewDir } : {}),
    ...(peers ? { NODE_ENV: 'production' } : {}),
  };
  const result = spawnSync(process.execPath, ['--expose-gc', ...(profile ? ['--enable-source-maps'] : []), outfile, ...args], {
    stdio: 'inherit',
    env,
  });
  process.exitCode = result.status ?? 1;
  if (peers || profile) {
    // The peer bench printed its cold imports itself; a profile is about runs, not activation.
  } else if (existsSync('dist/extension.js')) {
    const { activationBench } = await import('../bench/activation.mjs');
    const a = activationBench();
    console.log(`\nBundles (dist/, as last built): ${a.sizes.join(', ')}`);
    console.log(
      `activate(): require + activate of dist/extension.js in a fresh process, median ${a.median.toFixed(1)} ms (${a.min.toFixed(1)}–${a.max.toFixed(1)}) over 15 runs`,
    );
    const { bundleBench } = await import('../bench/activation.mjs');
    const b = await bundleBench();
    const range = (t) => `median ${t.median.toFixed(1)} ms (${t.min.toFixed(1)}–${t.max.toFixed(1)})`;
    const loadedToo = (t) => (t.others.length ? `; it also loaded ${t.others.join(', ')}` : '');
    console.log(`Sizes against their budgets (production sizes after \`npm run package\`): ${b.sizes.join(', ')}`);
    console.log(
      `require of dist/engine.js (${b.engineKB.toFixed(1)} KB) in a fresh process (goal under 60 ms), ${range(b.engineLoad)} over 15 runs${loadedToo(b.engineLoad)}`,
    );
    console.log(
      `engine.js as the extension loads it, through V8's code cache (src/core/platform/codeCache/), fresh processes, 15 runs: first window (no cache yet) ${range(b.cached.engine.cold)}; every later window (the cache used) ${range(b.cached.engine.warm)}`,
    );
    console.log('Each lazy bundle, required after engine.js in a fresh process (what the first run needing it adds):');
    for (const [name, { kb, load }] of Object.entries(b.lazy)) {
      const cached = b.cached[name];
      const viaCache = cached.off
        ? 'required the usual way (its code holds import(), which the code cache cannot run)'
        : `through the code cache: first window ${range(cached.cold)}, later windows ${range(cached.warm)}`;
      console.log(`  ${`${name}.js`.padEnd(20)} ${kb.toFixed(1).padStart(6)} KB  ${range(load)}${loadedToo(load)}; ${viaCache}`);
    }
    const { cliStartBench } = await import('../bench/cliStart.mjs');
    const c = cliStartBench();
    console.log(
      `\`subagents --help\` (dist/cli.js) in a fresh process, 15 runs: without a code cache ${range(c.off)}; the first command (it writes the cache) ${range(c.first)}; every later command (the cache used) ${range(c.cached)}; Node's own start (\`node -e 0\`) ${range(c.node)}`,
    );
  } else {
    console.log('\nactivate(): dist/extension.js is missing; run `npm run build` (or `npm run package` for the minified sizes) first');
  }
} catch (error) {
  console.error(`bench: could not build ${entry}: ${error instanceof Error ? error.message : error}`);
  process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
