import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildCli } from '../../../scripts/bundles.mjs';

// `subagents threads export ID --format json` and `threads import FILE` with the real CLI, built
// from the current sources, on real stores in temp folders.
vi.setConfig({ testTimeout: 60_000 });

let buildDir: string;
let cli: string;
let ws: string;

beforeAll(async () => {
  buildDir = await mkdtemp(join(tmpdir(), 'cli-archive-build-'));
  cli = join(buildDir, 'cli.js');
  await buildCli(buildDir);
}, 60_000);
afterAll(() => rm(buildDir, { recursive: true, force: true }));
beforeEach(async () => {
  ws = await mkdtemp(join(tmpdir(), 'cli-archive-ws-'));
  return () => rm(ws, { recursive: true, force: true });
});

function run(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = { ...process.env, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', SUBAGENTS_API_KEY: '', HOME: join(ws, '.home') };
  const child = spawn(process.execPath, [cli, ...args], { cwd: ws, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

const DELEGATING = {
  supervisor: [
    { text: 'Delegating. ', toolCalls: [{ tool: 'delegate_task', input: { task: 'look around', agents: ['explore'] } }] },
    { text: 'All done.' },
  ],
  explore: [{ match: 'look', text: 'found src/app.ts', usage: { inputTokens: 5, outputTokens: 3 } }],
};

/** Each thread file of a store as its events, by file name. */
async function threadFiles(dir: string): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const name of (await readdir(dir)).filter((n) => n.endsWith('.jsonl')).sort())
    out[name] = (await readFile(join(dir, name), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as unknown);
  return out;
}

describe('subagents threads export --format json / threads import', () => {
  it('round-trips a thread with its child threads into a fresh store: the same ids, entries and events', async () => {
    await writeFile(join(ws, 's.json'), JSON.stringify({ agents: DELEGATING }));
    const first = await run('run', '--model', 'scripted:s.json', '--storage', 'a', 'check the project');
    expect(first.code, first.stderr).toBe(0);
    const listed = JSON.parse((await run('threads', 'list', '--all', '--json', '--storage', 'a')).stdout) as {
      id: string;
      parentThreadId: string | null;
    }[];
    expect(listed).toHaveLength(2);
    const root = listed.find((t) => t.parentThreadId === null)!;
    const exported = await run('threads', 'export', root.id, '--format', 'json', '--storage', 'a');
    expect(exported.code, exported.stderr).toBe(0);
    await writeFile(join(ws, 'thread.json'), exported.stdout);

    const imported = await run('threads', 'import', 'thread.json', '--storage', 'b');
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain(`Imported thread ${root.id} ("check the project") with 1 child thread into`);
    // The same events, seq and ts included, each in its own thread's file.
    expect(await threadFiles(join(ws, 'b'))).toEqual(await threadFiles(join(ws, 'a')));
    // The index of the new store has them, as the old one had them.
    const listedB = JSON.parse((await run('threads', 'list', '--all', '--json', '--storage', 'b')).stdout) as unknown[];
    expect(listedB).toEqual(listed);
    const again = await run('threads', 'export', root.id, '--format', 'json', '--storage', 'b');
    expect(JSON.parse(again.stdout)).toEqual(JSON.parse(exported.stdout));
    const shown = await run('threads', 'show', root.id, '--storage', 'b');
    expect(shown.stdout).toContain('explore');

    // Its ids are taken now: refused, and nothing changes.
    const before = await threadFiles(join(ws, 'b'));
    const twice = await run('threads', 'import', 'thread.json', '--storage', 'b');
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/already has 2 of the file's threads.*nothing was imported. Delete it first/);
    expect(await threadFiles(join(ws, 'b'))).toEqual(before);
  });

  it('refuses a file that is not an export, saying what is wrong, and writes nothing', async () => {
    await writeFile(join(ws, 'not.json'), '{ nope');
    const notJson = await run('threads', 'import', 'not.json', '--storage', 'b');
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toMatch(/Cannot import .*not\.json: It is not JSON/);
    const meta = { id: 't_x', title: 'x', parentThreadId: null, agent: 'supervisor', createdAt: 1, updatedAt: 2 };
    await writeFile(
      join(ws, 'bad.json'),
      JSON.stringify({ thread: meta, events: [{ v: 1, kind: 'nonsense', threadId: 't_x', runId: 'r', seq: 1, ts: 1 }] }),
    );
    const bad = await run('threads', 'import', 'bad.json', '--storage', 'b');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/It is not a thread export: events\.0\.kind/);
    await writeFile(
      join(ws, 'orphan.json'),
      JSON.stringify({ thread: meta, threads: [meta, { ...meta, id: 'c_1', parentThreadId: 't_gone' }], events: [] }),
    );
    const orphan = await run('threads', 'import', 'orphan.json', '--storage', 'b');
    expect(orphan.stderr).toMatch(/Its thread c_1 belongs to t_gone, which the file does not hold/);
    const missing = await run('threads', 'import', 'missing.json', '--storage', 'b');
    expect(missing.stderr).toMatch(/Cannot read .*missing\.json: there is no such file/);
    const list = await run('threads', 'list', '--json', '--storage', 'b');
    expect(JSON.parse(list.stdout || '[]')).toEqual([]);
  });
});
