import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import type * as Bundles from '../../scripts/bundles.mjs';
import { formatMs, summarize, table } from '../stats';

// Cold import time per framework, each in a fresh node process (NODE_ENV=production, as the peer
// bench runs): `import()` of the package as installed (node_modules, as a Node program loads it),
// and of one minified esbuild bundle of it (as an extension ships it; ours ships only this way, so
// its row is src/core/engine/engine.ts built with the product's own bundle options). The peers' bundles are
// ESM, loaded with import(); ours is CommonJS, as the extension host loads it, so it is loaded with
// require(): an import() of a CommonJS file first scans all of it for its exports (cjs-module-lexer),
// which doubled our row (about 100 ms against 48 for require) and is no part of how it is loaded.

interface Framework {
  name: string;
  /** Where its package resolves from. */
  dir: string;
  /** The package to import; none for ours, which is only measured as a bundle. */
  specifier?: string;
}

type Bundle = { file: string; commonJs?: true } | { error: string };

/** One cold import in a fresh process: the milliseconds of `await import(target)`, or of `require(target)` for a CommonJS file. */
function importOnce(target: string, cwd: string, commonJs = false): number {
  const load = commonJs ? `require(${JSON.stringify(target)})` : `await import(${JSON.stringify(target)})`;
  const code = `const t0 = performance.now(); ${load}; process.stdout.write(String(performance.now() - t0));`;
  // A framework that keeps the process alive after its import (a timer, a socket) is stopped and reported.
  const r = spawnSync(process.execPath, [`--input-type=${commonJs ? 'commonjs' : 'module'}`, '-e', code], {
    cwd,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (r.error) throw new Error(`importing ${target} did not finish: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`importing ${target} failed: ${r.stderr.trim().split('\n').slice(-3).join(' ')}`);
  return Number(r.stdout);
}

/** The framework as one minified file in `outdir`, or why it could not be built. */
async function bundle(framework: Framework, root: string, outdir: string): Promise<Bundle> {
  const name = framework.name.replace(/\W+/g, '-');
  try {
    if (!framework.specifier) {
      // The engine as the product builds its bundles (minified, no gateway, lazy parts apart), minus
      // the vscode adapters of dist/engine.js. Loaded from its file, not bundled into this bench:
      // it finds the repository (and noGateway.ts) from its own location.
      const { bundleOptions } = (await import(pathToFileURL(join(root, 'scripts', 'bundles.mjs')).href)) as typeof Bundles;
      await esbuild.build({
        ...bundleOptions({ production: true }).engine,
        entryPoints: { [name]: 'src/core/engine/engine.ts' },
        outdir,
        logLevel: 'silent',
      });
      return { file: join(outdir, `${name}.js`), commonJs: true };
    }
    const file = join(outdir, `${name}.mjs`);
    await esbuild.build({
      stdin: { contents: `export * from ${JSON.stringify(framework.specifier)};`, resolveDir: framework.dir, loader: 'js' },
      bundle: true,
      minify: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      outfile: file,
      logLevel: 'silent',
      banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    });
    return { file };
  } catch (error) {
    return { error: (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').slice(0, 160) };
  }
}

/** The table of cold imports; `root` is the repository (the peers live in bench/peers). */
export async function coldImportBench(root: string, runs: number): Promise<string[]> {
  const peers = join(root, 'bench', 'peers');
  const frameworks: Framework[] = [
    { name: 'bare ai@7', dir: root, specifier: 'ai' },
    { name: 'ours: engine', dir: root },
    { name: 'bare ai@6', dir: peers, specifier: 'ai' },
    { name: 'VoltAgent', dir: peers, specifier: '@voltagent/core' },
    { name: '@openai/agents', dir: peers, specifier: '@openai/agents' },
  ];
  // Inside bench/peers/node_modules, so what a bundle still requires at run time resolves there first.
  const outdir = mkdtempSync(join(peers, 'node_modules', '.cache', 'cold-import-'));
  try {
    const bundles: Bundle[] = [];
    for (const framework of frameworks) bundles.push(await bundle(framework, root, outdir));
    const installed: number[][] = frameworks.map(() => []);
    const bundled: number[][] = frameworks.map(() => []);
    const failures = new Map<string, string>();
    // Round-robin, so load on the machine hits every framework alike.
    for (let i = 0; i < runs; i++) {
      for (const [f, framework] of frameworks.entries()) {
        const b = bundles[f]!;
        try {
          if (framework.specifier) installed[f]!.push(importOnce(framework.specifier, framework.dir));
          if ('file' in b) bundled[f]!.push(b.commonJs ? importOnce(b.file, outdir, true) : importOnce(pathToFileURL(b.file).href, outdir));
        } catch (error) {
          failures.set(framework.name, error instanceof Error ? error.message : String(error));
        }
      }
    }
    const cell = (values: number[]): string => (values.length ? formatMs(summarize(values)) : '—');
    const rows = [['framework', 'import as installed', 'import of one minified bundle (ours: require)', 'bundle size']];
    for (const [f, framework] of frameworks.entries()) {
      const b = bundles[f]!;
      rows.push([
        framework.name,
        framework.specifier ? cell(installed[f]!) : '— (ships bundled)',
        'file' in b ? cell(bundled[f]!) : `— (${b.error})`,
        'file' in b ? `${(statSync(b.file).size / 1024).toFixed(0)} KB` : '—',
      ]);
    }
    const lines = [`Cold import, a fresh node process each (NODE_ENV=production), medians (min–max) over ${runs} runs:`, '', table(rows)];
    for (const [name, message] of failures) lines.push(`  ${name}: ${message}`);
    return lines;
  } finally {
    await esbuild.stop();
    rmSync(outdir, { recursive: true, force: true });
  }
}
