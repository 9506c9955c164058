// Builds the four bundles: the extension host's light entry, its lazily loaded engine,
// the webview (browser) and the CLI. Type-checking is separate (`npm run typecheck`).
// Usage: node esbuild.mjs [--watch] [--production]
import * as esbuild from 'esbuild';
import { cpSync, mkdirSync } from 'node:fs';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  sourcesContent: false,
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
};

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

/** `ai` imports @ai-sdk/gateway only for string model ids, which we never use: see noGateway.ts. */
const noGateway = {
  name: 'no-gateway',
  setup(build) {
    build.onResolve({ filter: /^@ai-sdk\/gateway$/ }, () => ({ path: new URL('src/core/models/noGateway.ts', import.meta.url).pathname }));
  },
};

const node = {
  ...common,
  plugins: [noGateway],
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // Prefer a package's ESM build: jsonc-parser's UMD build hides its modules from the bundler.
  mainFields: ['module', 'main'],
  // ai@7 is ESM-only; bundled as CJS it needs import.meta.url for nothing we use.
  define: { 'import.meta.url': 'undefined' },
};

const targets = [
  // Activation loads only this: view provider shell, commands, output channel.
  { ...node, entryPoints: { extension: 'src/extension.ts' }, outdir: 'dist', external: ['vscode', './engine.js'] },
  // Loaded on first use: the core engine, the ai SDK, zod and the vscode adapters.
  { ...node, entryPoints: { engine: 'src/host/engineMain.ts' }, outdir: 'dist', external: ['vscode'] },
  { ...node, entryPoints: { cli: 'src/cli/main.ts' }, outdir: 'dist', banner: { js: '#!/usr/bin/env node' } },
  {
    ...common,
    entryPoints: { webview: 'webview/main.ts' },
    outdir: 'dist',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    tsconfig: 'webview/tsconfig.json',
  },
];

function copyStatic() {
  mkdirSync('dist', { recursive: true });
  cpSync('node_modules/@vscode/codicons/dist/codicon.css', 'dist/codicon.css');
  cpSync('node_modules/@vscode/codicons/dist/codicon.ttf', 'dist/codicon.ttf');
  cpSync('webview/style.css', 'dist/webview.css');
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
}
