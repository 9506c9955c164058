import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, realpath, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildCli } from '../../../scripts/bundles.mjs';
import { runEventSchema, type RunEvent } from '../../../src/shared/events';

// The CLI built from the current sources (as cli.test.ts does), driven over a real git repository.
vi.setConfig({ testTimeout: 60_000 });

let buildDir: string;
let cli: string;
let base: string;
let ws: string;
let storage: string;

beforeAll(async () => {
  buildDir = await mkdtemp(join(tmpdir(), 'cli-build-'));
  cli = join(buildDir, 'cli.js');
  await buildCli(buildDir);
}, 60_000);
afterAll(() => rm(buildDir, { recursive: true, force: true }));
beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'cli-changes-')));
  ws = join(base, 'ws');
  storage = join(base, 'storage');
  execFileSync('mkdir', [ws]);
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'test@example.com');
  git('config', 'user.name', 'Test');
  await writeFile(join(ws, 'a.txt'), 'one\ntwo\n');
  await writeFile(join(ws, '.gitignore'), 'script.json\n');
  git('add', '-A');
  git('commit', '-qm', 'start');
  return () => rm(base, { recursive: true, force: true });
});

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: ws, encoding: 'utf8' });
}

function cliRun(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = { ...process.env, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', SUBAGENTS_API_KEY: '', HOME: join(base, 'home') };
  const child = spawn(process.execPath, [cli, ...args], { cwd: ws, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** Runs a scripted supervisor with these tool calls (one step each); returns its events. */
async function work(...steps: { tool: string; input: unknown }[]): Promise<RunEvent[]> {
  await writeFile(
    join(ws, 'script.json'),
    JSON.stringify({ agents: { supervisor: [...steps.map((s) => ({ toolCalls: [s] })), { text: 'done' }] } }),
  );
  const ran = await cliRun(
    'run',
    '--model',
    'scripted:script.json',
    '--approval',
    'trust',
    '--sandbox',
    'off',
    '--storage',
    storage,
    '--json',
    'go',
  );
  expect(ran.code, ran.stderr).toBe(0);
  return ran.stdout
    .trim()
    .split('\n')
    .map((l) => runEventSchema.parse(JSON.parse(l)));
}

const EDIT = { tool: 'edit_file', input: { path: 'a.txt', oldText: 'two', newText: 'TWO' } };
const CREATE = { tool: 'write_file', input: { path: 'b.txt', content: 'b\n' } };

describe('subagents threads revert RUN', () => {
  it('reverts a run nobody touched since (exit 0); --dry-run changes nothing; threads show lists the changes', async () => {
    const events = await work(EDIT, CREATE);
    const runId = events[0]!.runId;
    const shown = await cliRun('threads', 'show', events[0]!.threadId, '--storage', storage);
    expect(shown.stdout).toContain(`2 files changed (+2 −1) (run ${runId}): a.txt (+1 −1), b.txt (new)`);

    const dry = await cliRun('threads', 'revert', runId, '--dry-run', '--storage', storage);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toBe('Would revert a.txt\nWould revert b.txt\n');
    expect(await readFile(join(ws, 'a.txt'), 'utf8')).toBe('one\nTWO\n');

    const reverted = await cliRun('threads', 'revert', runId, '--json', '--storage', storage);
    expect(reverted.code).toBe(0);
    expect(JSON.parse(reverted.stdout)).toEqual({ reverted: ['a.txt', 'b.txt'], skipped: [] });
    expect(await readFile(join(ws, 'a.txt'), 'utf8')).toBe('one\ntwo\n');
    expect(existsSync(join(ws, 'b.txt'))).toBe(false);
  });

  it('skips a file changed since and says why (exit 1); an unknown run is exit 2', async () => {
    const events = await work(EDIT, CREATE);
    await writeFile(join(ws, 'b.txt'), 'b, and the user went on\n');
    const result = await cliRun('threads', 'revert', events[0]!.runId, '--json', '--storage', storage);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({
      reverted: ['a.txt'],
      skipped: [
        {
          path: 'b.txt',
          reason:
            'it was changed since this run changed it (by the user, another run or a later step), so reverting it would lose that change',
        },
      ],
    });
    expect(await readFile(join(ws, 'b.txt'), 'utf8')).toBe('b, and the user went on\n');

    const unknown = await cliRun('threads', 'revert', 'r_0000000000000000', '--storage', storage);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('There is no run "r_0000000000000000"');
  });

  it("a worktree record (which a command can forge) naming another folder as the run's workspace: refused (exit 2), that folder and this one untouched", async () => {
    const events = await work(EDIT);
    const runId = events[0]!.runId;
    // The user's other folder holds a file with exactly what the run left, so a revert there would "restore" it.
    const victim = join(base, 'victim');
    execFileSync('mkdir', [victim]);
    await writeFile(join(victim, 'a.txt'), 'one\nTWO\n');
    execFileSync('mkdir', ['-p', join(storage, 'worktrees')]);
    const forged = {
      version: 1,
      runId,
      threadId: events[0]!.threadId,
      agent: 'supervisor',
      repo: victim,
      workspaceRoot: victim,
      prefix: '',
      path: join(victim, 'wt'),
      branch: `subagents/${runId}`,
      base: 'HEAD',
      state: 'working',
      owner: 'elsewhere:1',
      createdAt: 0,
    };
    await writeFile(join(storage, 'worktrees', `${runId}.json`), JSON.stringify(forged));
    const result = await cliRun('threads', 'revert', runId, '--storage', storage);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`was recorded as working in ${victim}, not in this workspace (${ws}); nothing was changed`);
    expect(await readFile(join(victim, 'a.txt'), 'utf8')).toBe('one\nTWO\n');
    expect(await readFile(join(ws, 'a.txt'), 'utf8')).toBe('one\nTWO\n');
  });
});

describe('a thread whose snapshots the size cap took', () => {
  it('threads show says its runs can no longer be reverted, and revert says why (exit 1)', async () => {
    execFileSync('mkdir', ['-p', join(ws, '.vscode')]);
    await writeFile(join(ws, '.vscode', 'settings.json'), JSON.stringify({ 'subagents.snapshots.maxMB': 1 }));
    // a.txt was there well before the run (the conflict guard refuses a never-read file written as the run starts).
    const before = new Date(Date.now() - 60_000);
    await utimes(join(ws, 'a.txt'), before, before);
    // 1.2 MB of snapshots in the older thread, a few bytes in the newer: the cap (1 MB) takes the older's.
    const old = await work({ tool: 'write_file', input: { path: 'a.txt', content: 'x'.repeat(1_200_000) } });
    await work(CREATE);
    const shown = await cliRun('threads', 'show', old[0]!.threadId, '--storage', storage);
    expect(shown.stdout).toMatch(
      /\n {2}revert unavailable: its snapshots were removed on .* to keep snapshots under subagents\.snapshots\.maxMB \(the oldest threads' go first\)\n/,
    );
    const json = JSON.parse((await cliRun('threads', 'show', old[0]!.threadId, '--json', '--storage', storage)).stdout) as {
      revertUnavailable?: string;
    };
    expect(json.revertUnavailable).toMatch(/^its snapshots were removed on /);
    const reverted = await cliRun('threads', 'revert', old[0]!.runId, '--json', '--storage', storage);
    expect(reverted.code).toBe(1);
    expect(JSON.parse(reverted.stdout)).toEqual({
      reverted: [],
      skipped: [
        { path: 'a.txt', reason: expect.stringMatching(/^no snapshot of its earlier content is kept \(its snapshots were removed on /) },
      ],
    });
  });
});

/** A Claude Code agent file with isolation: worktree, and a supervisor that delegates to it. */
async function isolatedWork(...steps: { tool: string; input: unknown }[]): Promise<RunEvent[]> {
  execFileSync('mkdir', ['-p', join(ws, '.claude', 'agents')]);
  await writeFile(
    join(ws, '.claude', 'agents', 'isolated.md'),
    '---\nname: isolated\ndescription: works alone\nisolation: worktree\n---\nYou work alone.\n',
  );
  git('add', '-A');
  git('commit', '-qm', 'the agent');
  await writeFile(
    join(ws, 'script.json'),
    JSON.stringify({
      agents: {
        supervisor: [{ toolCalls: [{ tool: 'delegate_task', input: { task: 'work', agents: ['isolated'] } }] }, { text: 'done' }],
        isolated: [...steps.map((s) => ({ toolCalls: [s] })), { text: 'isolated done' }],
      },
    }),
  );
  const ran = await cliRun(
    'run',
    '--model',
    'scripted:script.json',
    '--approval',
    'trust',
    '--sandbox',
    'off',
    '--storage',
    storage,
    '--json',
    'go',
  );
  expect(ran.code, ran.stderr).toBe(0);
  return ran.stdout
    .trim()
    .split('\n')
    .map((l) => runEventSchema.parse(JSON.parse(l)));
}

function childRun(events: RunEvent[]): string {
  return events.find((e) => e.kind === 'run.started' && e.agent === 'isolated')!.runId;
}

describe('subagents threads apply|discard RUN', () => {
  it('apply merges a worktree run into the workspace (exit 0); revert points to apply and discard', async () => {
    const events = await isolatedWork(EDIT, CREATE);
    const runId = childRun(events);
    expect(await readFile(join(ws, 'a.txt'), 'utf8')).toBe('one\ntwo\n');
    const revert = await cliRun('threads', 'revert', runId, '--storage', storage);
    expect(revert.code).toBe(2);
    expect(revert.stderr).toContain(
      `worked in a git worktree, so its changes are not in the workspace: use "subagents threads apply ${runId}"`,
    );
    const applied = await cliRun('threads', 'apply', runId, '--json', '--storage', storage);
    expect(applied.code, applied.stderr).toBe(0);
    expect(JSON.parse(applied.stdout)).toEqual({ applied: ['a.txt', 'b.txt'], conflicts: [] });
    expect(await readFile(join(ws, 'a.txt'), 'utf8')).toBe('one\nTWO\n');
    expect(await readFile(join(ws, 'b.txt'), 'utf8')).toBe('b\n');
    expect(git('branch', '--list', '--format=%(refname:short)', 'subagents/*')).toBe('');
    const again = await cliRun('threads', 'apply', runId, '--storage', storage);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('has no changes waiting in a worktree');
  });

  it("apply with a conflict exits 1 and keeps the branch; discard throws a run's worktree away (exit 0)", async () => {
    const first = childRun(await isolatedWork(EDIT));
    await writeFile(join(ws, 'a.txt'), 'one\ntwo, said the user\n');
    const conflicted = await cliRun('threads', 'apply', first, '--storage', storage);
    expect(conflicted.code).toBe(1);
    expect(conflicted.stdout).toContain('Conflict in a.txt: both changed the same lines');
    expect(conflicted.stdout).toContain(`stays on branch subagents/${first}`);
    expect(await readFile(join(ws, 'a.txt'), 'utf8')).toContain('<<<<<<< workspace\ntwo, said the user\n=======\nTWO\n>>>>>>>');

    const second = childRun(await isolatedWork(CREATE));
    const discarded = await cliRun('threads', 'discard', second, '--storage', storage);
    expect(discarded.code).toBe(0);
    expect(discarded.stdout).toContain(`Discarded the changes of run ${second}`);
    expect(existsSync(join(ws, 'b.txt'))).toBe(false);
    expect(git('branch', '--list', '--format=%(refname:short)', 'subagents/*').trim()).toBe(`subagents/${first}`);
  });
});
