import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { bundleOptions } from '../../../scripts/bundles.mjs';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

// Issue 9's attacks through the real CLI, built from the current sources (as cli.test.ts does).
// A process that hangs is killed by the guard below, so a regression fails here instead of hanging.
vi.setConfig({ testTimeout: 60_000 });
const GUARD_MS = 30_000;

let buildDir: string;
let cli: string;
let ws: string;

beforeAll(async () => {
  buildDir = await mkdtemp(join(tmpdir(), 'cli-threats-build-'));
  cli = join(buildDir, 'cli.js');
  await esbuild.build({ ...bundleOptions().cli, outdir: buildDir, sourcemap: false, logLevel: 'error' });
}, 60_000);
afterAll(() => rm(buildDir, { recursive: true, force: true }));
beforeEach(async () => {
  ws = await mkdtemp(join(tmpdir(), 'cli-threats-ws-'));
  return () => rm(ws, { recursive: true, force: true });
});

interface Result {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function start(args: string[], options: { env?: NodeJS.ProcessEnv; onStderr?: (text: string, child: ReturnType<typeof spawn>) => void } = {}) {
  const env = { ...process.env, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', SUBAGENTS_API_KEY: '', ...options.env };
  const child = spawn(process.execPath, [cli, ...args], { cwd: ws, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const guard = setTimeout(() => child.kill('SIGKILL'), GUARD_MS);
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    options.onStderr?.(stderr, child);
  });
  return new Promise<Result>((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      resolve({ code, signal, stdout, stderr });
    }),
  );
}

async function script(agents: Record<string, unknown[]>): Promise<void> {
  await writeFile(join(ws, 'script.json'), JSON.stringify({ agents }));
}

const EVIL_PATTERN = '(a+)+$';

describe('nothing hangs the CLI', () => {
  beforeEach(async () => {
    await writeFile(join(ws, 'long-line.txt'), `${'a'.repeat(5000)}!\n`);
  });

  it('search_text with a pattern that backtracks without end returns a timeout error, and the run goes on', async () => {
    await script({
      supervisor: [{ toolCalls: [{ tool: 'search_text', input: { pattern: EVIL_PATTERN, timeoutMs: 500 } }] }, { text: 'went on' }],
    });
    const r = await start(['run', '--model', 'scripted:script.json', 'search']);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(0);
    expect(r.stderr, r.stderr).toMatch(/search_text failed: .*search_text stopped after 500 ms/);
    expect(r.stdout).toContain('went on');
  });

  it('Ctrl+C ends such a search at once: the run is cancelled and the CLI exits 130', async () => {
    await script({ supervisor: [{ toolCalls: [{ tool: 'search_text', input: { pattern: EVIL_PATTERN, timeoutMs: 60_000 } }] }, { text: 'never' }] });
    let sent = false;
    const r = await start(['run', '--model', 'scripted:script.json', 'search'], {
      onStderr: (stderr, child) => {
        // Interrupt once the search has started: an event, not a guess at timing.
        if (!sent && stderr.includes('search_text')) {
          sent = true;
          child.kill('SIGINT');
        }
      },
    });
    expect(r.signal).toBeNull();
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/cancelled/);
  });
});
