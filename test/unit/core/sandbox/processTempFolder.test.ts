import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { afterAll, beforeAll, expect, it } from 'vitest';

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
    import { placeholderExcludes } from ${JSON.stringify(resolve('src/core/sandbox/placeholderExcludes.ts'))};
    const root = process.argv[2];
    const file = placeholderExcludes(root, [root + '/.env']);
    process.stdout.write(file ?? '');
    if (process.argv[3] === 'throw') throw new Error('ended by an error');
  `;
  await esbuild.build({ stdin: { contents: entry, resolveDir: process.cwd(), loader: 'ts' }, bundle: true, platform: 'node', format: 'cjs', outfile: script, logLevel: 'error' });
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
