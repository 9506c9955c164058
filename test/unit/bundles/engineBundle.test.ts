import { build, type Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleOptions, LAZY_BUNDLES } from '../../../scripts/bundles.mjs';

// engine.js is what the panel loads on first use: the heavy parts stay in bundles of their own
// (LAZY_BUNDLES), loaded when a run first needs them. Built in memory with the production options.

let meta: Metafile;
let code: string;

beforeAll(async () => {
  const engine = bundleOptions({ production: true }).engine;
  const result = await build({ ...engine, write: false, logLevel: 'error' });
  meta = result.metafile!;
  code = result.outputFiles.find((f) => f.path.endsWith('engine.js'))!.text;
}, 60_000);

const packagesIn = (m: Metafile): Set<string> =>
  new Set(Object.keys(m.inputs).flatMap((f) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(f)?.[1] ?? []));

const output = () => Object.values(meta.outputs).find((o) => o.entryPoint)!;

describe('engine.js leaves the heavy parts to their lazy bundles', () => {
  it("holds none of the ai SDK's run machinery, the vendors' model clients, the sandbox, tree-sitter, the YAML parser or the glob matcher", () => {
    const held = packagesIn(meta);
    // `ai` (streamText and its schemas) is aiSdk.js, loaded by the first run: the panel's first
    // request needs none of it. Our tool specs take jsonSchema and tool from @ai-sdk/provider-utils.
    for (const pkg of [
      'ai',
      '@ai-sdk/openai',
      '@ai-sdk/anthropic',
      '@ai-sdk/openai-compatible',
      '@anthropic-ai/sandbox-runtime',
      '@vscode/tree-sitter-wasm',
      'yaml',
      'minimatch',
      'brace-expansion',
      // Traces: telemetry.js, loaded only while subagents.telemetry.otlpEndpoint is set.
      '@ai-sdk/otel',
      '@opentelemetry/api',
      '@opentelemetry/sdk-trace-base',
      '@opentelemetry/sdk-trace',
      '@opentelemetry/exporter-trace-otlp-http',
      '@opentelemetry/otlp-exporter-base',
    ]) {
      expect(held.has(pkg), pkg).toBe(false);
    }
  });

  it('requires each lazy bundle it uses by its file name beside it', () => {
    const required = output()
      .imports.filter((i) => i.external)
      .map((i) => i.path);
    for (const name of ['aiSdk', 'sandbox', 'bashParser', 'modelClients', 'yaml', 'webFetch', 'minimatch', 'telemetry']) {
      expect(Object.keys(LAZY_BUNDLES)).toContain(name);
      expect(required).toContain(`./${name}.js`);
    }
  });

  it("leaves web_fetch's network modules (http, https, dns, zlib) to webFetch.js", () => {
    const builtins = output().imports.map((i) => i.path.replace(/^node:/, ''));
    for (const name of ['http', 'https', 'dns', 'zlib']) expect(builtins, name).not.toContain(name);
  });

  it("holds jsonc-parser's parser without its formatter, whose cached strings it would make at load", () => {
    const jsonc = Object.entries(output().inputs)
      .filter(([f, { bytesInOutput }]) => f.includes('node_modules/jsonc-parser/') && bytesInOutput > 0)
      .map(([f]) => f);
    expect(jsonc.some((f) => f.endsWith('/parser.js'))).toBe(true);
    expect(jsonc.filter((f) => /\/(format|edit|string-intern)\.js$/.test(f))).toEqual([]);
  });

  it('loads its lazy bundles with require, never import() (the code cache runs it as a vm script, which has no loader for import())', () => {
    expect(code).toContain('require("./sandbox.js")');
    expect(code).not.toMatch(/\bimport\s*\(/);
  });

  it('has lazy bundles without import(), but for those that must keep it (the code cache leaves those to Node)', async () => {
    const options = bundleOptions({ production: true });
    for (const [name, { keepsImport }] of Object.entries(LAZY_BUNDLES) as [string, { keepsImport?: boolean }][]) {
      const built = await build({ ...options[name as keyof typeof options], write: false, logLevel: 'error' });
      const text = built.outputFiles.find((f) => f.path.endsWith(`${name}.js`))!.text;
      expect(/\bimport\s*\(/.test(text), name).toBe(keepsImport === true);
    }
  }, 60_000);

  it('requires vscode once, so the API object is copied into one namespace and not into one per module', () => {
    expect(code.match(/require\("vscode"\)/g)).toHaveLength(1);
  });
});
