import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCli } from '../../../scripts/bundles.mjs';
import { runEventSchema, type RunEvent } from '../../../src/shared/events';

/** The CLI built from the current sources, a temp workspace, and the fixture MCP server. */

export const FIXTURE = join(__dirname, '..', '..', 'fixtures', 'mcp', 'fixtureServer.mjs');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  events: RunEvent[];
}

export async function buildCliInto(): Promise<{ dir: string; cli: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'cli-mcp-build-'));
  await buildCli(dir);
  return { dir, cli: join(dir, 'cli.js') };
}

export async function workspace(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'cli-mcp-ws-'));
}

export async function put(ws: string, rel: string, content: unknown): Promise<void> {
  await mkdir(join(ws, rel, '..'), { recursive: true });
  await writeFile(join(ws, rel), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
}

export const cleanup = (path: string) => rm(path, { recursive: true, force: true });

/** A fixture server declaration; `tag` marks its processes so the test can find them. */
export function fixtureServer(tag: string, ...extra: string[]): { command: string; args: string[]; env: Record<string, string> } {
  return { command: process.execPath, args: [FIXTURE, `--tag=${tag}`, ...extra], env: { FIXTURE_LOG: '${workspaceFolder}/fixture.log' } };
}

export function startCli(
  cli: string,
  ws: string,
  args: string[],
  env: Record<string, string> = {},
  onEvent?: (e: RunEvent, child: ChildProcess) => void,
): Promise<CliResult> {
  const childEnv = { ...process.env, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', SUBAGENTS_API_KEY: '', HOME: join(ws, '.home'), ...env };
  const child = spawn(process.execPath, [cli, ...args], { cwd: ws, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let seen = 0;
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    if (!onEvent) return;
    const lines = stdout.split('\n');
    for (; seen < lines.length - 1; seen++) onEvent(runEventSchema.parse(JSON.parse(lines[seen]!)), child);
  });
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) =>
    child.on('close', (code) => {
      const events =
        stdout.trim() && args.includes('--json')
          ? stdout
              .trim()
              .split('\n')
              .map((l) => runEventSchema.parse(JSON.parse(l)))
          : [];
      resolve({ code, stdout, stderr, events });
    }),
  );
}

/** Processes of this machine whose command line carries the tag (the fixture's, in the sandbox or not). */
export function processesTagged(tag: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(`--tag=${tag}`)) pids.push(Number(name));
    } catch {
      // gone already
    }
  }
  return pids;
}

export function fixtureLog(ws: string): string[] {
  try {
    return readFileSync(join(ws, 'fixture.log'), 'utf8').trim().split('\n');
  } catch {
    return [];
  }
}

export const finished = (events: RunEvent[], tool: string) =>
  events.filter((e): e is Extract<RunEvent, { kind: 'tool.finished' }> => e.kind === 'tool.finished' && e.tool === tool);
export const warnings = (events: RunEvent[]) => events.flatMap((e) => (e.kind === 'warning' ? [e] : []));
