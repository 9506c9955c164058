import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { leaveLeftoversOfKilledProcess } from '../../../fixtures/killedProcessLeftovers';

/**
 * The sandbox's git excludes file (placeholderExcludes.ts) lives in a temp folder made once per
 * process. A real process makes it, as a sandboxed command with a missing protected path does, and
 * ends: the folder must go with it, or every window that ran such a command leaves one behind.
 */
let work = '';
let script = '';
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'process-temp-folder-'));
  script = join(work, 'makeExcludes.js');
  const entry = `
    import { placeholderExcludes } from ${JSON.stringify(resolve('src/core/access/sandbox/placeholderExcludes.ts'))};
    const root = process.argv[2];
    const file = placeholderExcludes(root, [root + '/.env']);
    process.stdout.write(file ?? '');
    if (process.argv[3] === 'throw') throw new Error('ended by an error');
    // Lives until its stdin closes: a window that is still open.
    if (process.argv[3] === 'live') process.stdin.resume();
  `;
  await esbuild.build({
    stdin: { contents: entry, resolveDir: process.cwd(), loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outfile: script,
    logLevel: 'error',
  });
});
afterAll(() => rm(work, { recursive: true, force: true }));

it.each([
  ['ends normally', 'end'],
  ['ends with an uncaught error', 'throw'],
])('the excludes folder of a process is removed when it %s', (_, how) => {
  const ran = spawnSync(process.execPath, [script, work, how], { encoding: 'utf8' });
  expect(ran.status).toBe(how === 'end' ? 0 : 1);
  const file = ran.stdout;
  expect(file).toMatch(/subagents-sandbox-git-.*excludes-/);
  expect(existsSync(dirname(file))).toBe(false);
});

it("removes the excludes folder a killed process left, and keeps a live process's", async () => {
  // A temp folder of the test's own (TMPDIR), so only these processes' folders are in it.
  const temp = join(work, 'tmp');
  await mkdir(temp);
  const env = { ...process.env, TMPDIR: temp };
  const killed = await leaveLeftoversOfKilledProcess(temp);
  const live: ChildProcess = spawn(process.execPath, [script, work, 'live'], { env, stdio: ['pipe', 'pipe', 'inherit'] });
  try {
    const liveFile = await new Promise<string>((resolve) => live.stdout!.once('data', (d: Buffer) => resolve(d.toString())));
    expect(existsSync(liveFile)).toBe(true);

    const ran = spawnSync(process.execPath, [script, work, 'end'], { encoding: 'utf8', env });
    expect(ran.status).toBe(0);
    // The killed process's folder is gone with the one that ended; the live one's is untouched.
    expect(existsSync(killed.excludesFolder)).toBe(false);
    expect(existsSync(liveFile)).toBe(true);
    // sandbox-runtime's socket is not this module's to remove (removeStaleSandboxSockets is, when a sandbox starts).
    expect((await readdir(temp)).sort()).toEqual([dirname(liveFile).slice(temp.length + 1), `srt-mux-${killed.pid}-0.sock`].sort());
  } finally {
    live.stdin!.end();
    await new Promise((resolve) => live.once('exit', resolve));
  }
  expect(await readdir(temp)).toEqual([`srt-mux-${killed.pid}-0.sock`]);
});

it('makes the excludes folder again when something removed it (a process of another pid namespace sharing the temp folder)', async () => {
  const { placeholderExcludes } = await import('../../../../src/core/access/sandbox/placeholderExcludes');
  const first = placeholderExcludes(work, [join(work, '.env')])!;
  await rm(dirname(first), { recursive: true });
  const again = placeholderExcludes(work, [join(work, '.env')])!;
  expect(again).toBe(first);
  expect(existsSync(again)).toBe(true);
  await rm(dirname(again), { recursive: true });
});
