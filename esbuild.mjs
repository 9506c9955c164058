// Builds the bundles: the extension host's light entry, its lazily loaded engine, the webview
// (browser) and its stylesheet, the CLI, and the heavy parts both load on first use (the sandbox,
// the bash parser). Type-checking is separate (`npm run typecheck`).
// Usage: node esbuild.mjs [--watch] [--production]
import * as esbuild from 'esbuild';
import { cpSync, mkdirSync } from 'node:fs';
import { bundleOptions, copyRuntimeAssets, overBudget } from './scripts/bundles.mjs';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

const targets = Object.values(bundleOptions({ production }));

/** Prints esbuild's errors in the form of VS Code's `$esbuild-watch` problem matcher. */
const problemMatcher = {
  name: 'problem-matcher',
  setup(build) {
    build.onStart(() => console.log('[watch] build started'));
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      console.log('[watch] build finished');
    });
  },
};

function copyStatic() {
  mkdirSync('dist', { recursive: true });
  cpSync('node_modules/@vscode/codicons/dist/codicon.css', 'dist/codicon.css');
  cpSync('node_modules/@vscode/codicons/dist/codicon.ttf', 'dist/codicon.ttf');
  copyRuntimeAssets('dist');
}

if (watch) {
  copyStatic();
  for (const t of targets) {
    const ctx = await esbuild.context({ ...t, plugins: [...(t.plugins ?? []), problemMatcher] });
    await ctx.watch();
  }
} else {
  copyStatic();
  const results = await Promise.all(targets.map((t) => esbuild.build(t)));
  for (const r of results) {
    for (const [file, out] of Object.entries(r.metafile.outputs)) {
      if (!file.endsWith('.map')) console.log(`${file.padEnd(24)} ${(out.bytes / 1024).toFixed(1).padStart(8)} KB`);
    }
  }
  // The budgets are for the minified bundles that ship.
  const over = production ? results.flatMap((r) => overBudget(r.metafile.outputs)) : [];
  for (const sentence of over) console.error(`✘ ${sentence}`);
  if (over.length > 0) process.exitCode = 1;
}
