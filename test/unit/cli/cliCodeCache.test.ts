import { readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildCliInto, cleanup, startCli, workspace } from './mcpHarness';

// `subagents` loads its bundle (cliMain.js) and the lazy bundles a command needs through V8's code
// cache (src/core/platform/codeCache/), kept in the user's cache folder: the first command writes it as it
// exits, and every later one skips the compile. Real CLI processes on the CLI built from the sources.
vi.setConfig({ testTimeout: 60_000 });

let build: { dir: string; cli: string };
let ws: string;

beforeAll(async () => {
  build = await buildCliInto();
}, 60_000);
afterAll(() => cleanup(build.dir));
beforeEach(async () => {
  ws = await workspace();
  return () => cleanup(ws);
});

// Empty is unset for both: the machine's own choices must not move the cache out of the test's HOME.
const run = (args: string[], env: Record<string, string>) =>
  startCli(build.cli, ws, args, { XDG_CACHE_HOME: '', SUBAGENTS_CODE_CACHE: '', ...env });

const cachesIn = async (dir: string): Promise<string[]> =>
  (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.v8cache')).sort();

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

  it('keeps the caches of the lazy bundles a command loads (the ai SDK of the run)', async () => {
    const dir = join(ws, 'cache');
    await writeFile(join(ws, 'script.json'), JSON.stringify({ agents: { supervisor: [{ text: 'Done.' }] } }));
    const result = await run(['run', '--model', 'scripted:script.json', 'say done'], { SUBAGENTS_CODE_CACHE: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Done.');
    expect(result.stderr).not.toContain('warning');
    const caches = await cachesIn(dir);
    expect(caches.some((n) => /^cliMain-/.test(n))).toBe(true);
    expect(caches.some((n) => /^aiSdk-/.test(n))).toBe(true);
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
    await writeFile(blocked, 'not a folder');
    const result = await run(['--help'], { SUBAGENTS_CODE_CACHE: join(blocked, 'cache') });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage:');
    expect(result.stderr).toMatch(/^subagents: warning: the code cache .*could not be written: .*(ENOTDIR|EEXIST).*SUBAGENTS_CODE_CACHE/m);
  });
});
