import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { buildCli } from '../../../scripts/bundles.mjs';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { terminalApprover } from '../../../src/cli/terminalApprover';
import { terminalPrompt } from '../../../src/cli/terminalPrompt';
import type { ApprovalRequest } from '../../../src/core/ports';
import { startCli } from './mcpHarness';

// Built from the current sources like cli.test.ts does; spawned with no terminal (stdin ignored).
vi.setConfig({ testTimeout: 60_000 });

let buildDir: string;
let cli: string;
let ws: string;

beforeAll(async () => {
  buildDir = await mkdtemp(join(tmpdir(), 'cli-approvals-build-'));
  cli = join(buildDir, 'cli.js');
  await buildCli(buildDir);
}, 60_000);
afterAll(() => rm(buildDir, { recursive: true, force: true }));
beforeEach(async () => {
  ws = await mkdtemp(join(tmpdir(), 'cli-approvals-ws-'));
  return () => rm(ws, { recursive: true, force: true });
});

// The test's own HOME and no keys (startCli): nothing of the machine's ~/.claude or ~/.cache is read or written.
const run = (...args: string[]) => startCli(cli, ws, args);

const calls = [
  { tool: 'write_file', input: { path: 'notes.txt', content: 'written' } },
  { tool: 'run_command', input: { command: 'echo ran > ran.txt' } },
  { tool: 'write_file', input: { path: '.vscode/tasks.json', content: '{}' } },
];

async function scriptCalls() {
  await writeFile(join(ws, 'script.json'), JSON.stringify({ agents: { supervisor: [{ toolCalls: calls }, { text: 'done' }] } }));
}

describe('the CLI without a terminal', () => {
  it('denies whatever needs approval, and says why on stderr', async () => {
    await scriptCalls();
    const r = await run('run', '--model', 'scripted:script.json', '--storage', join(ws, '.store'), 'go');
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/not run: write_file .*no terminal to ask/);
    expect(r.stderr).toMatch(/not run: run_command/);
    expect(existsSync(join(ws, 'notes.txt'))).toBe(false);
    expect(existsSync(join(ws, 'ran.txt'))).toBe(false);
    expect(existsSync(join(ws, '.vscode'))).toBe(false);
  });

  it('in autoEdit with the runner allowed, read-only helpers run; a refusal names --allow-command, never the setting the CLI ignores (issue 39 item 5)', async () => {
    const commands = ['git --version | head -n 1 && wc -l script.json | head', 'npx vitest run 2>&1 | tail -n 40'];
    const script = {
      agents: { supervisor: [{ toolCalls: commands.map((command) => ({ tool: 'run_command', input: { command } })) }, { text: 'done' }] },
    };
    await writeFile(join(ws, 'script.json'), JSON.stringify(script));
    const r = await run(
      'run',
      '--json',
      '--model',
      'scripted:script.json',
      '--storage',
      join(ws, '.store'),
      '--approval',
      'autoEdit',
      '--allow-command',
      'git --version',
      '--sandbox',
      'off',
      'go',
    );
    expect(r.code).toBe(0);
    const finished = r.stdout
      .split('\n')
      .filter((line) => line.includes('"tool.finished"'))
      .map((line) => JSON.parse(line) as { output: { output?: string; error?: string } });
    expect(finished.map((e) => e.output.output ?? '').join('')).toMatch(/git version .*\n0 script\.json/s);
    const refusal = finished.map((e) => e.output.error).find(Boolean) ?? '';
    expect(refusal).toMatch(
      /^run_command was not run: `npx vitest` \(in `npx vitest run[^`]*`\) is not among the commands allowed without asking/,
    );
    expect(refusal).toContain("--allow-command 'npx vitest'");
    expect(refusal).not.toMatch(/user denied|autoApproveCommands/i);
    expect(r.stderr).toMatch(/not run: run_command .*--allow-command 'npx vitest'/);
  });

  it('with --approval trust edits and runs commands, but still denies a protected file', async () => {
    await scriptCalls();
    const r = await run('run', '--model', 'scripted:script.json', '--storage', join(ws, '.store'), '--approval', 'trust', 'go');
    expect(r.code).toBe(0);
    expect(await readFile(join(ws, 'notes.txt'), 'utf8')).toBe('written');
    expect(await readFile(join(ws, 'ran.txt'), 'utf8')).toBe('ran\n');
    expect(r.stderr).toMatch(/not run: write_file \(Protected file/);
    expect(existsSync(join(ws, '.vscode'))).toBe(false);
  });
});

describe('the terminal approver on a terminal', () => {
  const request: ApprovalRequest = {
    approvalId: 'a1',
    threadId: 't',
    runId: 'r',
    agent: 'worker',
    toolCallId: 'c',
    tool: 'write_file',
    input: { path: 'x' },
    reason: 'Writes x.',
  };

  function tty() {
    const input = Object.assign(new PassThrough(), { isTTY: true });
    const output = new PassThrough();
    let shown = '';
    output.on('data', (d: Buffer) => (shown += d.toString()));
    const approver = terminalApprover({ prompt: terminalPrompt({ input, output }), output });
    return { input, approver, shown: () => shown };
  }

  it('asks who wants what and why, and takes y as approval', async () => {
    const t = tty();
    const decision = t.approver.request(request, new AbortController().signal);
    t.input.write('y\n');
    expect(await decision).toBe('approved');
    expect(t.shown()).toMatch(/Approve \[worker\] write_file \{"path":"x"\}\?\n {2}\(Writes x\.\) \[y\/N\]/);
  });

  it('takes anything else as a denial, and a cancelled run as one too', async () => {
    const t = tty();
    const first = t.approver.request(request, new AbortController().signal);
    t.input.write('sure\n');
    expect(await first).toBe('denied');
    const controller = new AbortController();
    const second = t.approver.request(request, controller.signal);
    controller.abort();
    expect(await second).toBe('denied');
  });
});
