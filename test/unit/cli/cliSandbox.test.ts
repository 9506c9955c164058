import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildCli } from '../../../scripts/bundles.mjs';
import { runEventSchema, type RunEvent } from '../../../src/shared/events';

/**
 * The built CLI (its sandbox in a bundle of its own, dist/sandbox.js) with the real sandbox, in the
 * workspace as a user runs it: a command's changes are its own (none of the sandbox's placeholders,
 * issue 39 item 3), and the thread storage in the workspace (the default) is read-only to it.
 */

vi.setConfig({ testTimeout: 120_000 });

let buildDir: string;
let cli: string;
let ws: string;

beforeAll(async () => {
  buildDir = await mkdtemp(join(tmpdir(), 'cli-sandbox-build-'));
  cli = join(buildDir, 'cli.js');
  await buildCli(buildDir);
}, 120_000);
afterAll(() => rm(buildDir, { recursive: true, force: true }));
beforeEach(async () => {
  ws = await realpath(await mkdtemp(join(tmpdir(), 'cli-sandbox-ws-')));
  return () => rm(ws, { recursive: true, force: true });
});

function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = { ...process.env, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', SUBAGENTS_API_KEY: '', HOME: join(ws, '.home') };
  const child = spawn(process.execPath, [cli, ...args], { cwd: ws, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('subagents CLI: commands in the OS sandbox', () => {
  it('records only what a command changed, and cannot write the thread storage', async () => {
    // The default thread storage is <workspace>/.subagents/threads, its worktrees root in it.
    const forge =
      "for (const f of ['.subagents/threads/forged.jsonl', '.subagents/threads/worktrees/run.json']) { try { require('fs').mkdirSync(require('path').dirname(f), { recursive: true }); require('fs').writeFileSync(f, '{}'); console.log('WROTE') } catch (e) { console.log(e.code) } }";
    await writeFile(join(ws, 'forge.js'), forge);
    const calls = [
      { tool: 'run_command', input: { command: 'echo made > made.txt' } },
      { tool: 'run_command', input: { command: 'node forge.js' } },
    ];
    await writeFile(
      join(ws, 'script.json'),
      JSON.stringify({ agents: { supervisor: [{ toolCalls: [calls[0]] }, { toolCalls: [calls[1]] }, { text: 'done' }] } }),
    );
    const result = await runCli(['run', '--json', '--model', 'scripted:script.json', '--approval', 'trust', '--sandbox', 'on', 'go']);
    expect(result.code, result.stderr).toBe(0);
    const events: RunEvent[] = result.stdout
      .trim()
      .split('\n')
      .map((line) => runEventSchema.parse(JSON.parse(line)));
    const changed = events.flatMap((e) => (e.kind === 'file.changed' ? [e.path] : []));
    expect(changed).toEqual(['made.txt']);
    const outputs = events.flatMap((e) =>
      e.kind === 'tool.finished' && e.tool === 'run_command' ? [e.output as { output?: string }] : [],
    );
    expect(outputs[1]?.output).toMatch(/^E[A-Z]+\nE[A-Z]+\n$/);
    expect(existsSync(join(ws, '.subagents', 'threads', 'forged.jsonl'))).toBe(false);
    expect(existsSync(join(ws, '.subagents', 'threads', 'worktrees', 'run.json'))).toBe(false);
    expect(existsSync(join(ws, '.env'))).toBe(false);
  });
});
