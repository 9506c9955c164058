import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildCli } from '../../../scripts/bundles.mjs';

// `subagents` loads its bundle (cliMain.js) and the lazy bundles a command needs through V8's code
// cache (src/core/codeCache/), kept in the user's cache folder: the first command writes it as it
// exits, and every later one skips the compile. Real CLI processes on the CLI built from the sources.
vi.setConfig({ testTimeout: 60_000 });

let buildDir: string;
let cli: string;
let ws: string;

beforeAll(async () => {
  buildDir = await mkdtemp(join(tmpdir(), 'cli-cache-build-'));
  cli = join(buildDir, 'cli.js');
  await buildCli(buildDir);
}, 60_000);
afterAll(() => rm(buildDir, { recursive: true, force: true }));
beforeEach(async () => {
  ws = await mkdtemp(join(tmpdir(), 'cli-cache-ws-'));
  return () => rm(ws, { recursive: true, force: true });
});

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[], env: Record<string, string | undefined>): Promise<Result> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, HOME: join(ws, '.home'), XDG_CACHE_HOME: undefined, SUBAGENTS_CODE_CACHE: undefined, ...env };
  for (const [key, value] of Object.entries(childEnv)) if (value === undefined) delete childEnv[key];
  const child = spawn(process.execPath, [cli, ...args], { cwd: ws, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

const cachesIn = async (dir: string): Promise<string[]> => (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.v8cache')).sort();

describe('subagents keeps its compiled code in the code cache', () => {
  it('writes the cache as the first command exits, and a later command uses it as it is', async () => {
    const dir = join(ws, 'cache');
    const first = await run(['--help'], { SUBAGENTS_CODE_CACHE: dir });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Usage:');
    expect(first.stderr).toBe('');
    const caches = await cachesIn(dir);
    expect(caches).toEqual([expect.stringMatching(/^cliMain-[0-9a-f]{24}\.v8cache$/)]);
    const before = await stat(join(dir, caches[0]!));

    const second = await run(['--help'], { SUBAGENTS_CODE_CACHE: dir });
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    // Used, so not written again: a cache that was missing, refused or of another build is replaced.
    expect(await cachesIn(dir)).toEqual(caches);
    const after = await stat(join(dir, caches[0]!));
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
  });

  it('keeps the caches of the lazy bundles a command loads (the lock library of the thread store)', async () => {
    const dir = join(ws, 'cache');
    await writeFile(join(ws, 'script.json'), JSON.stringify({ agents: { supervisor: [{ text: 'Done.' }] } }));
    const result = await run(['run', '--model', 'scripted:script.json', 'say done'], { SUBAGENTS_CODE_CACHE: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Done.');
    expect(result.stderr).not.toContain('warning');
    const caches = await cachesIn(dir);
    expect(caches.some((n) => /^cliMain-/.test(n))).toBe(true);
    expect(caches.some((n) => /^lockfile-/.test(n))).toBe(true);
  });

  it("is kept in the user's cache folder by default: XDG_CACHE_HOME, else ~/.cache", async () => {
    expect((await run(['--help'], {})).code).toBe(0);
    expect(await cachesIn(join(ws, '.home', '.cache', 'subagents', 'code-cache'))).toHaveLength(1);
    const xdg = join(ws, 'xdg');
    expect((await run(['--help'], { XDG_CACHE_HOME: xdg })).code).toBe(0);
    expect(await cachesIn(join(xdg, 'subagents', 'code-cache'))).toHaveLength(1);
  });

  it('writes nothing with SUBAGENTS_CODE_CACHE=off', async () => {
    const result = await run(['--help'], { SUBAGENTS_CODE_CACHE: 'off' });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage:');
    expect(await readdir(join(ws, '.home')).catch(() => [])).toEqual([]);
  });

  it('says why a cache could not be written, and the command still works', async () => {
    // A file where the cache folder should be.
    const blocked = join(ws, 'blocked');
    await mkdir(ws, { recursive: true });
    await writeFile(blocked, 'not a folder');
    const result = await run(['--help'], { SUBAGENTS_CODE_CACHE: join(blocked, 'cache') });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage:');
    expect(result.stderr).toMatch(/^subagents: warning: the code cache .*could not be written: .*(ENOTDIR|EEXIST).*SUBAGENTS_CODE_CACHE/m);
  });
});
