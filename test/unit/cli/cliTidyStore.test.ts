import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, watch, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { runEventSchema, type RunEvent } from '../../../src/shared/events';
import { buildCliForTest, startCli, type BuiltCli } from './cliHarness';

// Issue 39 items 11 and 12, through the real CLI: what a run leaves in the workspace, what its
// run.config says about the model, what `threads show` says of a killed run, and retention.
vi.setConfig({ testTimeout: 60_000 });

let built: BuiltCli;
let ws: string;
let scripts: string;

beforeAll(async () => {
  built = await buildCliForTest();
}, 60_000);
afterAll(() => built.dispose());
beforeEach(async () => {
  ws = await mkdtemp(join(tmpdir(), 'cli-tidy-ws-'));
  // Scripts live outside the workspace, so they are not what `git status` shows.
  scripts = await mkdtemp(join(tmpdir(), 'cli-tidy-scripts-'));
  return async () => {
    await rm(ws, { recursive: true, force: true });
    await rm(scripts, { recursive: true, force: true });
  };
});

// HOME outside the workspace: the CLI's code cache goes there, and git status must not see it.
const cli = (args: string[], onStdout?: Parameters<typeof startCli>[2]['onStdout']) =>
  startCli(built.path, args, { cwd: ws, env: { HOME: join(scripts, 'home') }, ...(onStdout ? { onStdout } : {}) });

async function script(name: string, agents: Record<string, unknown[]>): Promise<string> {
  const path = join(scripts, name);
  await writeFile(path, JSON.stringify({ agents }));
  return path;
}

function events(stdout: string): RunEvent[] {
  return stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => runEventSchema.parse(JSON.parse(line)));
}

/** Resolves once `path` contains `text`: the file is looked at again each time its folder changes. */
async function onDisk(path: string, text: string): Promise<void> {
  const has = () =>
    readFile(path, 'utf8').then(
      (t) => t.includes(text),
      () => false,
    );
  const stop = new AbortController();
  const changes = watch(dirname(path), { signal: stop.signal });
  try {
    if (await has()) return;
    for await (const change of changes) if (change.filename && (await has())) return;
  } finally {
    stop.abort();
  }
}

const git = (...args: string[]) => execFileSync('git', args, { cwd: ws, encoding: 'utf8' });

describe('the CLI keeps the workspace tidy', () => {
  it('makes .subagents/ with a .gitignore of its own, so a run leaves git status clean', async () => {
    git('init', '-q');
    await writeFile(join(ws, 'a.txt'), 'a\n');
    git('add', '.');
    git('-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qm', 'init');
    const path = await script('s.json', { supervisor: [{ text: 'hello' }] });
    const result = await cli(['run', '--model', `scripted:${path}`, 'hi']);
    expect(result.code, result.stderr).toBe(0);
    expect(await readFile(join(ws, '.subagents', '.gitignore'), 'utf8')).toBe('*\n');
    expect(git('status', '--porcelain', '--untracked-files=all')).toBe('');
  });

  it('leaves a .subagents folder it did not make as it is', async () => {
    await mkdir(join(ws, '.subagents'));
    const path = await script('s.json', { supervisor: [{ text: 'hello' }] });
    const result = await cli(['run', '--model', `scripted:${path}`, 'hi']);
    expect(result.code, result.stderr).toBe(0);
    await expect(readFile(join(ws, '.subagents', '.gitignore'), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('writes nothing through a .subagents link an agent left pointing elsewhere', async () => {
    const elsewhere = join(scripts, 'elsewhere');
    await mkdir(elsewhere);
    await symlink(elsewhere, join(ws, '.subagents'));
    const path = await script('s.json', { supervisor: [{ text: 'hello' }] });
    const result = await cli(['run', '--model', `scripted:${path}`, 'hi']);
    expect(result.code, result.stderr).toBe(0);
    await expect(readFile(join(elsewhere, '.gitignore'), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it("says the top run's model came from --model, not from the settings", async () => {
    const path = await script('s.json', { supervisor: [{ text: 'hello' }] });
    const flag = await cli(['run', '--json', '--model', `scripted:${path}`, 'hi']);
    expect(flag.code, flag.stderr).toBe(0);
    const config = events(flag.stdout).find((e) => e.kind === 'run.config');
    expect(config?.kind === 'run.config' && config.model.via).toBe('the --model flag: the profile names no model');

    await mkdir(join(ws, '.vscode'));
    await writeFile(join(ws, '.vscode', 'settings.json'), JSON.stringify({ 'subagents.model': `scripted:${path}` }));
    const setting = await cli(['run', '--json', 'hi']);
    expect(setting.code, setting.stderr).toBe(0);
    const fromSettings = events(setting.stdout).find((e) => e.kind === 'run.config');
    expect(fromSettings?.kind === 'run.config' && fromSettings.model.via).toBe(
      `"subagents.model" in ${join(ws, '.vscode', 'settings.json')}: the profile names no model`,
    );
  });
});

describe('threads after a run was killed', () => {
  it('threads show says interrupted, as threads list does, after a SIGKILL mid-run', async () => {
    // The model takes an hour to answer: the process is killed while the run works.
    const path = await script('slow.json', { supervisor: [{ delayMs: 3_600_000, text: 'never' }] });
    let threadId = '';
    const killed = await cli(['run', '--json', '--model', `scripted:${path}`, 'work slowly'], (stdout, child) => {
      const started = stdout.split('\n').find((l) => l.includes('"run.started"'));
      if (started && !threadId) {
        threadId = (JSON.parse(started) as { threadId: string }).threadId;
        // Killed once the run's start is on disk (the store writes it on the loop's next turn).
        void onDisk(join(ws, '.subagents', 'threads', `${threadId}.jsonl`), '"run.started"').then(() => child.kill('SIGKILL'));
      }
    });
    expect(killed.signal).toBe('SIGKILL');
    expect(threadId).not.toBe('');

    const list = await cli(['threads', 'list', '--json']);
    expect(list.code, list.stderr).toBe(0);
    expect((JSON.parse(list.stdout) as { id: string; status: string }[]).map((t) => [t.id, t.status])).toEqual([[threadId, 'interrupted']]);

    const show = await cli(['threads', 'show', threadId, '--json']);
    expect(show.code, show.stderr).toBe(0);
    const shown = JSON.parse(show.stdout) as { runs: { agent: string; state: string }[] };
    expect(shown.runs.map((r) => [r.agent, r.state])).toEqual([['supervisor', 'interrupted']]);
    const text = await cli(['threads', 'show', threadId]);
    expect(text.stdout).toContain('interrupted');
    expect(text.stdout).toContain('supervisor [interrupted]');
    // Reading never changes a file: the thread's file still ends without the run's end.
    const file = await readFile(join(ws, '.subagents', 'threads', `${threadId}.jsonl`), 'utf8');
    expect(file).not.toContain('run.finished');
  });
});

describe('retention in the CLI', () => {
  it('applies subagents.threads.retention before it exits', async () => {
    await mkdir(join(ws, '.vscode'));
    await writeFile(join(ws, '.vscode', 'settings.json'), JSON.stringify({ 'subagents.threads.retention': { maxThreads: 1 } }));
    const path = await script('s.json', { supervisor: [{ text: 'hello', fallback: true }] });
    const ids: string[] = [];
    for (const prompt of ['first', 'second']) {
      const result = await cli(['run', '--json', '--model', `scripted:${path}`, prompt]);
      expect(result.code, result.stderr).toBe(0);
      ids.push(events(result.stdout)[0]!.threadId);
    }
    const list = await cli(['threads', 'list', '--json']);
    expect((JSON.parse(list.stdout) as { id: string }[]).map((t) => t.id)).toEqual([ids[1]]);
  });
});
