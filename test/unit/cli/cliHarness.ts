import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCli } from '../../../scripts/bundles.mjs';

/**
 * The real CLI, built from the current sources into a temp folder (as cli.test.ts builds it), and
 * run as a process in a workspace with a HOME of its own and no API keys.
 */
export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface BuiltCli {
  path: string;
  dispose(): Promise<void>;
}

export async function buildCliForTest(): Promise<BuiltCli> {
  const dir = await mkdtemp(join(tmpdir(), 'cli-build-'));
  await buildCli(dir);
  return { path: join(dir, 'cli.js'), dispose: () => rm(dir, { recursive: true, force: true }) };
}

export interface StartOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Sees stdout as it grows (with the process, to signal it). */
  onStdout?: (text: string, child: ChildProcess) => void;
}

export function startCli(cli: string, args: readonly string[], options: StartOptions): Promise<CliResult> {
  const env = {
    ...process.env,
    OPENAI_API_KEY: '',
    ANTHROPIC_API_KEY: '',
    SUBAGENTS_API_KEY: '',
    HOME: join(options.cwd, '.home'),
    ...options.env,
  };
  const child = spawn(process.execPath, [cli, ...args], { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    options.onStdout?.(stdout, child);
  });
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}
