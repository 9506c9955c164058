import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCli } from '../../../scripts/bundles.mjs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Without the OS sandbox a command runs as the user and can read /proc/<pid>/environ of every
// process of the user: the CLI (its parent), the process launcher, anything. The real CLI, built
// from the sources, runs such a command; the keys it was started with must be in none of them.
vi.setConfig({ testTimeout: 90_000 });

const KEYS = {
  OPENAI_API_KEY: 'sk-proc-leak-openai-4f1c',
  ANTHROPIC_API_KEY: 'sk-proc-leak-anthropic-9d2e',
  SUBAGENTS_API_KEY: 'sk-proc-leak-ours-77aa',
};
let buildDir: string;
let cli: string;
let ws: string;

beforeAll(async () => {
  buildDir = await mkdtemp(join(tmpdir(), 'cli-keys-build-'));
  cli = join(buildDir, 'cli.js');
  await buildCli(buildDir);
  ws = await mkdtemp(join(tmpdir(), 'cli-keys-ws-'));
}, 90_000);
afterAll(async () => {
  await rm(buildDir, { recursive: true, force: true });
  await rm(ws, { recursive: true, force: true });
});

function run(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [cli, ...args], {
    cwd: ws,
    env: { ...process.env, ...KEYS, HOME: join(ws, '.home') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.resume();
  const guard = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) => child.on('close', (code) => (clearTimeout(guard), resolve({ code, stderr }))));
}

describe('the API keys of a CLI run and a command without the sandbox', () => {
  it.skipIf(process.platform !== 'linux')(
    'are in no environ the command can read: not its parent (the CLI), not the launcher, not any process of the user',
    async () => {
      // $PPID is the CLI; search_text starts ripgrep through the process launcher first, so it is running.
      const probe =
        'tr "\\0" "\\n" < /proc/$PPID/environ > parent.txt\n' +
        'for p in /proc/[0-9]*; do tr "\\0" "\\n" < $p/environ 2>/dev/null | sed "s#^#${p#/proc/} #"; tr "\\0" " " < $p/cmdline 2>/dev/null | sed "s#^#${p#/proc/} cmd #"; echo; done > all.txt\n';
      await writeFile(join(ws, 'probe.sh'), probe);
      const command = 'sh probe.sh';
      await writeFile(join(ws, 'notes.txt'), 'needle\n');
      await writeFile(
        join(ws, 'script.json'),
        JSON.stringify({
          agents: {
            supervisor: [
              { toolCalls: [{ tool: 'search_text', input: { pattern: 'needle' } }] },
              { toolCalls: [{ tool: 'run_command', input: { command } }] },
              { text: 'done' },
            ],
          },
        }),
      );
      const r = await run(['run', '--model', 'scripted:script.json', '--approval', 'trust', '--sandbox', 'off', 'go']);
      expect(r.stderr).not.toContain('could not clear');
      expect(r.code).toBe(0);
      const parent = await readFile(join(ws, 'parent.txt'), 'utf8');
      // The parent really is the CLI: its environment is the one the test gave it (HOME), the keys' values gone.
      expect(parent).toContain(`HOME=${join(ws, '.home')}`);
      const all = await readFile(join(ws, 'all.txt'), 'utf8');
      expect(all).toMatch(/ cmd .*-e/); // the launcher (node -e …) was among them
      for (const value of Object.values(KEYS)) {
        expect(parent).not.toContain(value);
        expect(all).not.toContain(value);
      }
    },
  );
});
