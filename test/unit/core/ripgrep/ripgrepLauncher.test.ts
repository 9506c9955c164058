import { existsSync, readFileSync } from 'node:fs';
import { chmod, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  setProcessLauncherLog,
  sharedProcessLauncher,
  shutdownProcessLauncher,
} from '../../../../src/core/platform/processLauncher/sharedLauncher';
import { ripgrepOnPath } from '../../../../src/core/tools/search/ripgrep/locateRipgrep';
import { ripgrepListing } from '../../../../src/core/tools/search/ripgrep/ripgrepSources';
import { isDead, parentOf } from '../nodeAdapters/procStat';
import { makeWorld } from '../tools/toolWorld';

/**
 * A search's ripgrep started by the shared process launcher: cancelled, it is killed; the launcher
 * killed under it, the search still answers and the next one starts a new launcher. The ripgrep
 * here is a stand-in that waits (a real one on a small tree ends before a test can act): a script
 * that writes its pid, then waits until told to go on, then runs the real rg with what it was given.
 */
const rg = ripgrepOnPath();
let world: Awaited<ReturnType<typeof makeWorld>>;
let standIn: string;
const log: string[] = [];

beforeAll(async () => {
  world = await makeWorld();
  await writeFile(join(world.root, 'a.txt'), 'needle\n');
  await writeFile(join(world.root, 'b.md'), 'nothing\n');
  standIn = join(world.base, 'rg-stand-in');
  await writeFile(
    standIn,
    `#!/bin/sh\necho $$ > "${world.base}/pid"\nwhile [ ! -e "${world.base}/go" ]; do sleep 0.02; done\nexec "${rg}" "$@"\n`,
  );
  await chmod(standIn, 0o755);
  setProcessLauncherLog((message) => log.push(message));
});
afterAll(async () => {
  shutdownProcessLauncher();
  await world.cleanup();
});

const deps = () => ({
  workspace: { root: world.root, ripgrep: standIn },
  commands: { environment: () => ({ PATH: process.env.PATH ?? '' }) },
});

/** The stand-in's pid, once it has started and written it (a fresh one each time). */
async function startedPid(): Promise<number> {
  const file = join(world.base, 'pid');
  await vi.waitFor(() => expect(existsSync(file) && readFileSync(file, 'utf8').endsWith('\n')).toBe(true), { timeout: 5000, interval: 10 });
  const pid = Number(readFileSync(file, 'utf8'));
  await rm(file);
  return pid;
}

describe.skipIf(process.platform !== 'linux' || !rg)('a search by the process launcher', () => {
  it('cancelled, kills its ripgrep', async () => {
    await rm(join(world.base, 'go'), { force: true });
    const stop = new AbortController();
    const listing = ripgrepListing(deps(), stop.signal, 10_000);
    const pid = await startedPid();
    expect(parentOf(pid)).toBe(sharedProcessLauncher()!.pid);
    stop.abort();
    await expect(listing).rejects.toThrow(/abort/i);
    await vi.waitFor(() => expect(isDead(pid)).toBe(true), { timeout: 2000, interval: 10 });
  });

  it('with its launcher killed under it, still answers (ripgrep started directly), and the next search starts a new launcher', async () => {
    await rm(join(world.base, 'go'), { force: true });
    const listing = ripgrepListing(deps(), new AbortController().signal, 10_000);
    const first = await startedPid();
    const launcher = sharedProcessLauncher()!;
    const [launcherPid, started] = [launcher.pid!, launcher.started];
    process.kill(launcherPid, 'SIGKILL');
    // Only now: the first stand-in, killed with its launcher, never got to answer; the one started again does.
    await writeFile(join(world.base, 'go'), '');
    expect((await listing)?.sort()).toEqual(['a.txt', 'b.md']);
    const again = await startedPid();
    expect(again).not.toBe(first);
    await vi.waitFor(() => expect(isDead(first)).toBe(true), { timeout: 2000, interval: 10 });
    expect(log).toEqual([expect.stringMatching(/^The process launcher ended: it was killed \(SIGKILL\)/)]);
    expect((await ripgrepListing(deps(), new AbortController().signal, 10_000))?.sort()).toEqual(['a.txt', 'b.md']);
    expect(await startedPid()).toBeGreaterThan(0);
    expect(launcher.started).toBe(started + 1);
    expect(launcher.pid).not.toBe(launcherPid);
  });
});
