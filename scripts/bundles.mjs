// The esbuild options of every bundle, in one place: esbuild.mjs builds them, and the tests that
// need a bundle (the CLI, the webview) build it from these same options, never from a copy.

/** `ai` imports @ai-sdk/gateway only for string model ids, which we never use: see noGateway.ts. */
const noGateway = {
  name: 'no-gateway',
  setup(build) {
    build.onResolve({ filter: /^@ai-sdk\/gateway$/ }, () => ({ path: new URL('../src/core/models/noGateway.ts', import.meta.url).pathname }));
  },
};

const root = new URL('..', import.meta.url).pathname;

/** @param {{ production?: boolean }} [options] */
export function bundleOptions({ production = false } = {}) {
  const common = {
    absWorkingDir: root,
    bundle: true,
    minify: production,
    sourcemap: production ? false : 'linked',
    sourcesContent: false,
    legalComments: 'none',
    logLevel: 'warning',
    metafile: true,
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
  return {
    // Activation loads only this: view provider shell, commands, output channel.
    extension: { ...node, entryPoints: { extension: 'src/extension.ts' }, outdir: 'dist', external: ['vscode', './engine.js', './agentClient.js'] },
    // Loaded on first use: the core engine, the ai SDK, zod and the vscode adapters.
    engine: { ...node, entryPoints: { engine: 'src/host/engineMain.ts' }, outdir: 'dist', external: ['vscode'] },
    // Loaded when the first agent file is opened: the language client (vscode-languageclient) and the agent-file commands.
    agentClient: { ...node, entryPoints: { agentClient: 'src/host/agentFileClient.ts' }, outdir: 'dist', external: ['vscode'] },
    // The agent-file language server, a process of its own started by the client.
    server: { ...node, entryPoints: { server: 'src/server/server.ts' }, outdir: 'dist' },
    cli: { ...node, entryPoints: { cli: 'src/cli/main.ts' }, outdir: 'dist', banner: { js: '#!/usr/bin/env node' } },
    webview: {
      ...common,
      entryPoints: { webview: 'webview/main.ts' },
      outdir: 'dist',
      platform: 'browser',
      format: 'iife',
      target: 'es2022',
      tsconfig: 'webview/tsconfig.json',
    },
  };
}
