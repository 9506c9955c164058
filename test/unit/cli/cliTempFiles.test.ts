import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { buildCli } from '../../../scripts/bundles.mjs';

/**
 * A CLI run that ran a command in the OS sandbox leaves nothing in the temp folder: not the
 * sandbox's proxy sockets, nor the git excludes folder for missing protected paths. Each run gets a
 * temp folder of its own (TMPDIR), so whatever the process left there is this run's, by any name.
 */
vi.setConfig({ testTimeout: 60_000 });

let buildDir: string;
let cli: string;
let base: string;

beforeAll(async () => {
  buildDir = await mkdtemp(join(tmpdir(), 'cli-build-'));
  cli = join(buildDir, 'cli.js');
  await buildCli(buildDir);
  base = await realpath(await mkdtemp(join(tmpdir(), 'cli-temp-files-')));
}, 60_000);
afterAll(async () => {
  await rm(buildDir, { recursive: true, force: true });
  await rm(base, { recursive: true, force: true });
});

it('a run that ran a sandboxed command leaves its temp folder empty', async () => {
  const ws = join(base, 'ws');
  const temp = join(base, 'temp');
  await mkdir(ws);
  await mkdir(temp);
  // No .env in the workspace: the sandbox guards the missing protected path with a placeholder, and git is told to ignore it.
  const script = { agents: { supervisor: [{ toolCalls: [{ tool: 'run_command', input: { command: 'echo inside' } }] }, { text: 'done' }] } };
  await writeFile(join(base, 'script.json'), JSON.stringify(script));
  const env = { ...process.env, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', SUBAGENTS_API_KEY: '', HOME: join(base, 'home'), TMPDIR: temp };
  const args = ['run', '--model', `scripted:${join(base, 'script.json')}`, '--approval', 'trust', '--sandbox', 'on', '--storage', join(base, 'storage'), '--json', 'go'];
  const child = spawn(process.execPath, [cli, ...args], { cwd: ws, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(code, stderr).toBe(0);
  // The command ran in the sandbox (not refused): its output is in the tool's result.
  expect(stdout).toContain('inside');
  expect(await readdir(temp)).toEqual([]);
});
