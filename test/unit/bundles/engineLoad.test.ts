import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleOptions } from '../../../scripts/bundles.mjs';
import { vscodeStandInSource } from '../../../scripts/vscodeStandIn.mjs';
import { buildCodeCacheProcess } from '../core/codeCache/codeCacheProcess';

// What loading engine.js does, in a fresh node process as the panel's first request loads it (the
// production build, with a source map so each zod object built is traced to the file that built
// it). What only a later step needs (a run's tools, a scripted model, an MCP server's declaration,
// a worktree, an export, a command) is built or required by that step.

interface Load {
  /** zod objects (schemas and checks) built while engine.js loaded, by the source file that built them. */
  zodBy: Record<string, number>;
  /** Node's built-in modules loaded by then. */
  builtins: string[];
  /** The files Node's CommonJS loader had loaded by then. */
  files: string[];
}

let dir: string;
let load: Load;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'engine-load-'));
  await build({ ...bundleOptions({ production: true }).engine, outdir: dir, sourcemap: 'linked', logLevel: 'error' });
  const child = `${vscodeStandInSource(process.cwd())}
Error.stackTraceLimit = 40;
const zodBy = {};
// zod keeps a config that is already there; it calls postProcessor with every object it builds.
globalThis.__zod_globalConfig = {
  postProcessor() {
    const frames = [...new Error().stack.matchAll(/((?:src|node_modules)\\/[^:()]+):\\d+:\\d+/g)].map((m) => m[1]);
    const by = frames.find((f) => !f.startsWith('node_modules/zod/')) ?? '(zod itself)';
    zodBy[by] = (zodBy[by] ?? 0) + 1;
  },
};
const before = new Set(process.moduleLoadList);
require(${JSON.stringify(join(dir, 'engine.js'))});
const builtins = process.moduleLoadList.filter((m) => !before.has(m) && m.startsWith('NativeModule ') && !m.startsWith('NativeModule internal/')).map((m) => m.slice('NativeModule '.length));
process.stdout.write(JSON.stringify({ zodBy, builtins, files: Object.keys(require.cache) }));
`;
  const r = spawnSync(process.execPath, ['--enable-source-maps', '-e', child], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`loading engine.js failed: ${r.stderr}`);
  load = JSON.parse(r.stdout) as Load;
}, 60_000);

afterAll(() => rm(dir, { recursive: true, force: true }));

const builtBy = (pattern: RegExp) => Object.fromEntries(Object.entries(load.zodBy).filter(([file]) => pattern.test(file)));

describe('loading engine.js', () => {
  it('traces the zod objects it builds to their files (the check below sees what it looks for)', () => {
    // The settings and the profiles are read as the panel opens.
    for (const file of ['src/core/config/settings/engineSettings.ts', 'src/core/config/profiles/profile.ts'])
      expect(load.zodBy[file], file).toBeGreaterThan(10);
  });

  it('builds no zod schema that only a later step needs', () => {
    // Tools' inputs: when a run's tool set is made. The rest: on their first use.
    expect(
      builtBy(
        /^src\/core\/tools\/builtin\/|^src\/core\/run\/delegation\/(backgroundRuns|delegateTask)\.ts$|^src\/host\/chat\/delegateTool\.ts$/,
      ),
    ).toEqual({});
    expect(
      builtBy(/^src\/core\/models\/(scriptSchema|probeOllama)\.ts$|^src\/core\/worktrees\/|^src\/core\/threads\/threadArchive\.ts$/),
    ).toEqual({});
    // The process launcher's frames: when the first command runs.
    expect(builtBy(/^src\/core\/processLauncher\//)).toEqual({});
    // The panel's messages: each kind when the first message of that kind comes (opening the panel sends one or two kinds of some twenty).
    expect(builtBy(/^src\/shared\/(protocol|lazyUnion)\.ts$/)).toEqual({});
  });

  it("builds RunEvent's schemas only when a thread file or an archive is read, but for the run status that the thread index uses", () => {
    expect(load.zodBy['src/shared/events.ts'] ?? 0).toBeLessThanOrEqual(1);
  });

  it("builds none of the ai SDK's schemas: its run machinery is aiSdk.js, which the first run loads", () => {
    expect(builtBy(/node_modules\/ai\//)).toEqual({});
  });

  it("builds only the name and field checks of MCP servers, not a server declaration's shapes", () => {
    expect(load.zodBy['src/core/config/mcp/mcpServerConfig.ts'] ?? 0).toBeLessThan(10);
  });

  it('requires no node:child_process (the first git or command run does) and no node:worker_threads (the first regex search does)', () => {
    expect(load.builtins).not.toContain('child_process');
    expect(load.builtins).not.toContain('worker_threads');
    // It does see what engine.js requires.
    expect(load.builtins).toContain('fs/promises');
  });

  it("loads no tracing code (telemetry.js: the ai SDK's OpenTelemetry integration, the OTLP exporter): only a request with traces on does", () => {
    expect(load.files.filter((f) => /telemetry\.js$|opentelemetry/.test(f))).toEqual([]);
    expect(load.files.some((f) => f.endsWith('engine.js'))).toBe(true);
  });

  it('loads through the code cache as the extension does: compiled the first time, from the cache the next, with its exports', async () => {
    const loader = await buildCodeCacheProcess(dir);
    const env = { ...process.env, CODE_CACHE_FILE: join(dir, 'engine.js'), CODE_CACHE_DIR: join(dir, 'code-cache') };
    const loadOnce = (save: boolean) => {
      const child = `${vscodeStandInSource(process.cwd())}\nrequire(${JSON.stringify(loader)});`;
      const r = spawnSync(process.execPath, ['-e', child], {
        encoding: 'utf8',
        env: { ...env, ...(save ? { CODE_CACHE_SAVE: '1' } : {}) },
      });
      if (r.status !== 0) throw new Error(`loading engine.js through the code cache failed: ${r.stderr}`);
      return JSON.parse(r.stdout) as { cache: string; exports: string[]; problems: string[] };
    };
    const first = loadOnce(true);
    expect(first).toMatchObject({ cache: 'none', exports: ['createHostRuntime'], problems: [] });
    expect(loadOnce(false)).toMatchObject({ cache: 'used', exports: ['createHostRuntime'], problems: [] });
  }, 60_000);
});
