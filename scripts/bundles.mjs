// The esbuild options of every bundle, in one place: esbuild.mjs builds them, and the tests that
// need a bundle (the CLI, the webview) build it from these same options, never from a copy.
import { cpSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as esbuild from 'esbuild';

/** `ai` imports @ai-sdk/gateway only for string model ids, which we never use: see noGateway.ts. */
const noGateway = {
  name: 'no-gateway',
  setup(build) {
    build.onResolve({ filter: /^@ai-sdk\/gateway$/ }, () => ({
      path: new URL('../src/core/models/noGateway.ts', import.meta.url).pathname,
    }));
  },
};

/**
 * zod re-exports every one of its ~50 locales as the namespace `z.locales`, which a bundler cannot
 * shake (about 258 KB of engine.js); its default, English, is the only one we use. Each import of
 * zod's locale index inside zod becomes English alone; `z.locales.en` still works.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)
        ? { path: join(dirname(args.importer), '..', 'locales', 'en.js'), namespace: 'zod-english-only' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: dirname(args.path),
    }));
  },
};

const leftOut = (what) =>
  `throw new Error(${JSON.stringify(`${what} is left out of this bundle (zodLeftOut in scripts/bundles.mjs): bundle zod whole to use it.`)})`;

/**
 * Parts of zod that nothing we bundle calls, each replaced in our bundles by a stand-in that says so
 * when called (a file of zod's, by name, with the names it exports):
 * - `z.fromJSONSchema` (JSON Schema to zod): 12 KB and, at load, a copy of every schema constructor
 *   (about 0.6 ms of engine.js's load);
 * - `z.compile` and `z.withParser` (parsers compiled ahead of time): 29 KB that each load of
 *   engine.js would compile.
 */
const ZOD_LEFT_OUT = {
  'from-json-schema.js': `export function fromJSONSchema() { ${leftOut('z.fromJSONSchema')}; }`,
  'compile.js': [
    'export const INVALID = Symbol.for("zod.compile.invalid");',
    'export class ZodCompileAsyncError extends Error {}',
    'export class ZodCompileUnsupportedError extends Error {}',
    ...['compile', 'withParser', 'compileFn'].map((name) => `export function ${name}() { ${leftOut(`z.${name}`)}; }`),
  ].join('\n'),
};
const zodLeftOut = {
  name: 'zod-left-out',
  setup(build) {
    build.onResolve({ filter: /^\.\/(from-json-schema|compile)\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer) ? { path: args.path.slice(2), namespace: 'zod-left-out' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-left-out' }, (args) => ({ contents: ZOD_LEFT_OUT[args.path], loader: 'js' }));
  },
};

/**
 * jsonc-parser makes, when it loads, 1,200 cached indentation strings for its formatter (about
 * 240 KB, often a garbage collection in engine.js's load), which the bundler keeps because it
 * cannot tell that making them does nothing else. We only parse: its modules are marked free of
 * side effects, so what we do not import (the formatter, the editor, those strings) is left out.
 */
const jsoncParseOnly = {
  name: 'jsonc-parse-only',
  setup(build) {
    build.onResolve({ filter: /^jsonc-parser$|^\.\.?\/(impl\/)?\w+$/ }, async (args) => {
      if (
        args.pluginData === jsoncParseOnly ||
        (args.path !== 'jsonc-parser' && !/[\\/]node_modules[\\/]jsonc-parser[\\/]/.test(args.importer))
      )
        return undefined;
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: jsoncParseOnly,
      });
      return resolved.errors.length > 0 ? undefined : { path: resolved.path, sideEffects: false };
    });
  },
};

/**
 * Every `import * as vscode from 'vscode'` of a bundle reads one namespace. Left external, each
 * module importing vscode gets its own copy of the API object (esbuild's `__toESM` defines a getter
 * for each of its ~200 names), about 4 ms at engine.js's load for its 19 modules; here the API is
 * copied once, by one module that re-exports it.
 */
const vscodeOnce = {
  name: 'vscode-once',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) =>
      args.namespace === 'vscode-once' ? { path: 'vscode', external: true } : { path: 'vscode', namespace: 'vscode-once' },
    );
    build.onLoad({ filter: /.*/, namespace: 'vscode-once' }, () => ({ contents: "export * from 'vscode';", loader: 'js' }));
  },
};

/**
 * A lazy bundle with this plugin takes zod from the bundle that loads it (engine.js, cliMain.js), which
 * leaves it on the global SHARED_ZOD (src/core/models/sharedZod.ts) when it loads, instead of
 * carrying a copy of its own.
 */
const zodFromHost = (bundle) => ({
  name: 'zod-from-host',
  setup(build) {
    build.onResolve({ filter: /^zod\/v4(\/core|\/mini|\/locales\/en\.js)?$/ }, (args) => ({ path: args.path, namespace: 'zod-from-host' }));
    build.onLoad({ filter: /.*/, namespace: 'zod-from-host' }, (args) => ({
      contents: [
        "const shared = globalThis[Symbol.for('subagents.sharedZod')];",
        `if (!shared) throw new Error(${JSON.stringify(`${bundle}.js takes zod from the bundle that loads it (engine.js or cliMain.js, see src/core/models/sharedZod.ts): load that bundle first.`)});`,
        `module.exports = shared[${JSON.stringify(args.path)}];`,
      ].join('\n'),
      loader: 'js',
    }));
  },
});

const root = new URL('..', import.meta.url).pathname;

/**
 * The heavy parts that are loaded on first use, each a bundle of its own beside the one that
 * loads it: the module's `import()` in the engine and the CLI becomes an import of the file
 * (a require in engine.js, see `noImport`).
 */
export const LAZY_BUNDLES = {
  // The ai SDK's run machinery (streamText, the middleware wrapper), loaded by the first run; with the
  // zod of the bundle that loads it.
  aiSdk: { entry: 'src/core/run/agent/aiRuntime.ts', module: /\/aiRuntime(\.ts)?$/, zodFromHost: true },
  // The OS sandbox for agents' commands (@anthropic-ai/sandbox-runtime: bubblewrap, Seatbelt).
  sandbox: { entry: 'src/core/access/sandbox/sandboxRuntime.ts', module: /\/sandboxRuntime(\.ts)?$/ },
  // tree-sitter and its bash grammar (WebAssembly), for the command judge. It keeps its import():
  // web-tree-sitter declares its own `require` in the function that imports "module", which a
  // require in place of that import() would call before it is set. So the code cache leaves it to
  // Node's loader (src/core/platform/codeCache/).
  bashParser: { entry: 'src/core/access/commands/treeSitterBash.ts', module: /\/treeSitterBash(\.ts)?$/, keepsImport: true },
  // The MCP client (@modelcontextprotocol/sdk), loaded by the first run that needs a server.
  mcp: { entry: 'src/core/tools/mcp/mcpConnection.ts', module: /\/mcpConnection(\.ts)?$/ },
  // The ACP client (@agentclientprotocol/sdk), loaded by the first run of an external agent (a profile's `acp`).
  // With the zod of the bundle that loads it.
  acp: { entry: 'src/core/run/external/acpConnection.ts', module: /\/acpConnection(\.ts)?$/, zodFromHost: true },
  // The ACP agent side (the same SDK), loaded only by `subagents acp`; with the zod of cliMain.js. The
  // extension never loads it, so the .vsix does not ship it (cliOnly).
  acpAgent: { entry: 'src/cli/acpServer/agentTransport.ts', module: /\/agentTransport(\.ts)?$/, zodFromHost: true, cliOnly: true },
  // HTML to Markdown for web_fetch (turndown and its DOM, domino), loaded by the first page fetched.
  htmlToMarkdown: { entry: 'src/core/tools/web/htmlToMarkdown.ts', module: /\/htmlToMarkdown(\.ts)?$/ },
  // The vendors' model clients (@ai-sdk/openai, anthropic, openai-compatible), made on a model's first call;
  // with the zod of the bundle that loads them.
  modelClients: { entry: 'src/core/models/vendorClients.ts', module: /\/vendorClients(\.ts)?$/, zodFromHost: true },
  // The YAML parser of agent files' front matter (the `yaml` package), required by the first agent file read.
  yaml: { entry: 'node_modules/yaml/dist/index.js', module: /^yaml$/ },
  // web_fetch's HTTP client (node:http, https, dns, zlib, the private-address judge), loaded by the first fetch.
  webFetch: { entry: 'src/core/tools/web/fetchPage.ts', module: /\/fetchPage(\.ts)?$/ },
  // Glob matching (minimatch and brace-expansion), required by the first glob matched (find_files, a command's glob).
  minimatch: { entry: 'node_modules/minimatch/dist/esm/index.js', module: /^minimatch$/ },
  // Traces (the ai SDK's OpenTelemetry integration, the OpenTelemetry tracer, the OTLP/HTTP exporter), loaded by
  // the first request made while subagents.telemetry.otlpEndpoint is set; never otherwise. With the zod of the bundle that loads it.
  telemetry: { entry: 'src/core/run/telemetry/otelTracing.ts', module: /\/otelTracing(\.ts)?$/, zodFromHost: true },
};

/**
 * The most each production (minified) bundle may weigh, in KB: `node esbuild.mjs --production`
 * (so `npm run package`) fails above it, and `npm run bench` prints each size beside its budget.
 * engine.js is what the panel's first request loads; the lazy ones load when a run needs them.
 */
export const SIZE_BUDGETS_KB = {
  extension: 16,
  engine: 1000,
  aiSdk: 300,
  agentClient: 900,
  server: 640,
  cli: 16,
  cliMain: 1000,
  webview: 300,
  sandbox: 600,
  bashParser: 120,
  modelClients: 800,
  mcp: 600,
  acp: 100,
  acpAgent: 100,
  htmlToMarkdown: 350,
  yaml: 130,
  webFetch: 20,
  minimatch: 40,
  telemetry: 200,
};

/** Bundles of `outputs` (an esbuild metafile's) over their budget, as sentences. */
export function overBudget(outputs) {
  const over = [];
  for (const [file, { bytes }] of Object.entries(outputs)) {
    const name = /([^/]+)\.js$/.exec(file)?.[1];
    const budget = name && SIZE_BUDGETS_KB[name];
    if (budget && bytes / 1024 > budget)
      over.push(
        `${file} is ${(bytes / 1024).toFixed(1)} KB, over its budget of ${budget} KB (SIZE_BUDGETS_KB in scripts/bundles.mjs): move a heavy part into a lazy bundle, or raise the budget with a reason`,
      );
  }
  return over;
}

/** Files the lazy bundles read at run time, copied beside them (`from` is under node_modules). */
export const RUNTIME_ASSETS = [
  { from: '@vscode/tree-sitter-wasm/wasm/tree-sitter.wasm', to: 'tree-sitter.wasm' },
  { from: '@vscode/tree-sitter-wasm/wasm/tree-sitter-bash.wasm', to: 'tree-sitter-bash.wasm' },
  // sandbox-runtime finds these beside its bundle (it looks in vendor/ next to import.meta.url).
  { from: '@anthropic-ai/sandbox-runtime/vendor/seccomp/x64/apply-seccomp', to: 'vendor/seccomp/x64/apply-seccomp' },
  { from: '@anthropic-ai/sandbox-runtime/vendor/seccomp/arm64/apply-seccomp', to: 'vendor/seccomp/arm64/apply-seccomp' },
  { from: '@anthropic-ai/sandbox-runtime/vendor/java-proxy-agent/srt-proxy-agent.jar', to: 'vendor/java-proxy-agent/srt-proxy-agent.jar' },
];

/** Keeps the lazy parts out of the bundles that load them: their import stays a require of `./<name>.js`. */
const lazyParts = {
  name: 'lazy-parts',
  setup(build) {
    for (const [name, { module }] of Object.entries(LAZY_BUNDLES)) {
      build.onResolve({ filter: module }, (args) => (args.kind === 'entry-point' ? undefined : { path: `./${name}.js`, external: true }));
    }
  },
};

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
    plugins: [zodEnglishOnly, zodLeftOut, jsoncParseOnly],
  };
  const node = {
    ...common,
    plugins: [...common.plugins, noGateway, lazyParts, vscodeOnce],
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // Prefer a package's ESM build: jsonc-parser's UMD build hides its modules from the bundler.
    mainFields: ['module', 'main'],
    // ESM code (ai@7, sandbox-runtime, our asset lookups) reads import.meta.url; in a CJS bundle it
    // is the bundle file's own URL, so files beside the bundle are found.
    define: { 'import.meta.url': '__bundleUrl' },
    banner: { js: 'var __bundleUrl = require("url").pathToFileURL(__filename).href;' },
  };
  // What the extension loads through V8's code cache (engine.js and its lazy bundles,
  // src/core/platform/codeCache/) runs as a vm script, which has no loader for import(): there import()
  // becomes require (Node's CommonJS loader is also the cheaper path to a CommonJS file).
  const noImport = { supported: { 'dynamic-import': false } };
  const lazy = Object.fromEntries(
    Object.entries(LAZY_BUNDLES).map(([name, { entry, zodFromHost: shared, keepsImport }]) => [
      name,
      {
        ...node,
        ...(keepsImport ? {} : noImport),
        ...(shared ? { plugins: [...node.plugins, zodFromHost(name)] } : {}),
        entryPoints: { [name]: entry },
        outdir: 'dist',
      },
    ]),
  );
  return {
    // Activation loads only this: view provider shell, commands, output channel.
    extension: { ...node, entryPoints: { extension: 'src/extension.ts' }, outdir: 'dist', external: ['vscode', './agentClient.js'] },
    // Loaded on first use: the core engine, the ai SDK, zod and the vscode adapters.
    engine: { ...node, ...noImport, entryPoints: { engine: 'src/host/workspace/engineMain.ts' }, outdir: 'dist', external: ['vscode'] },
    // Loaded when the first agent file is opened: the language client (vscode-languageclient) and the agent-file commands.
    agentClient: { ...node, entryPoints: { agentClient: 'src/host/agentFiles/agentFileClient.ts' }, outdir: 'dist', external: ['vscode'] },
    // The agent-file language server, a process of its own started by the client.
    server: { ...node, entryPoints: { server: 'src/server/server.ts' }, outdir: 'dist' },
    // The `subagents` command: a launcher that loads the CLI (cliMain.js) through the code cache.
    cli: { ...node, entryPoints: { cli: 'src/cli/launcher.ts' }, outdir: 'dist', banner: { js: '#!/usr/bin/env node' } },
    cliMain: { ...node, ...noImport, entryPoints: { cliMain: 'src/cli/main.ts' }, outdir: 'dist' },
    ...lazy,
    webview: {
      ...common,
      entryPoints: { webview: 'webview/main.ts' },
      outdir: 'dist',
      platform: 'browser',
      format: 'iife',
      target: 'es2022',
      tsconfig: 'webview/tsconfig.json',
    },
    // The panel's stylesheet: webview/style.css and the sheets it imports, as dist/webview.css.
    webviewCss: { ...common, entryPoints: { webview: 'webview/style.css' }, outdir: 'dist' },
  };
}

/** Copies the lazy bundles' run-time files into `outdir`. */
export function copyRuntimeAssets(outdir) {
  for (const { from, to } of RUNTIME_ASSETS) {
    const target = join(outdir, to);
    mkdirSync(dirname(target), { recursive: true });
    cpSync(join(root, 'node_modules', from), target);
  }
}

/**
 * Builds the CLI with the lazy bundles it loads and their files into `outdir`, as dist/ has them:
 * for the tests that run the real CLI bundle.
 * @param {string} outdir
 */
export async function buildCli(outdir) {
  const options = bundleOptions();
  const quiet = { outdir, sourcemap: false, logLevel: 'error' };
  await Promise.all(['cli', 'cliMain', ...Object.keys(LAZY_BUNDLES)].map((name) => esbuild.build({ ...options[name], ...quiet })));
  copyRuntimeAssets(outdir);
}
