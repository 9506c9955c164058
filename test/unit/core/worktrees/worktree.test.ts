import { existsSync } from 'node:fs';
import { mkdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeWorkspace } from '../../../../src/core/engine/nodeWorkspace';
import type { Script } from '../../../../src/core/models/scriptSchema';
import { editorToolSource } from '../../../../src/core/tools/editorTools/editorToolSource';
import { McpHub } from '../../../../src/core/tools/mcp/mcpHub';
import { mcpToolSource } from '../../../../src/core/tools/mcp/runMcpTools';
import type { RunToolSource } from '../../../../src/core/tools/runToolSource';
import { Worktrees } from '../../../../src/core/changes/worktrees/worktrees';
import type { RunEventOf } from '../../../../src/shared/events';
import { agent, makeEngine } from '../engineHarness';
import { gitWorld, plainWorld } from '../changes/gitWorld';

const TRUST = { approval: 'trust' as const, 'sandbox.mode': 'off' as const };

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

/** The supervisor delegates one task to `isolated` (a worktree profile), whose steps are given. */
function delegating(steps: Script['agents'][string]): Script {
  return {
    agents: {
      supervisor: [{ toolCalls: [{ tool: 'delegate_task', input: { task: 'change things', agents: ['isolated'] } }] }, { text: 'done' }],
      isolated: [...steps, { text: 'isolated done' }],
    },
  };
}

async function runIsolated(
  root: string,
  storage: string,
  steps: Script['agents'][string],
  worktrees = new Worktrees(join(storage, 'worktrees')),
  extra: { toolSources?: RunToolSource[]; tools?: string[] } = {},
) {
  const h = makeEngine(delegating(steps), {
    workspace: nodeWorkspace({ root }),
    settings: TRUST,
    agents: { isolated: agent('works alone', { isolation: 'worktree', ...(extra.tools ? { tools: extra.tools } : {}) }) },
    worktrees,
    ...(extra.toolSources ? { toolSources: extra.toolSources } : {}),
  });
  const { threadId, done } = await h.engine.send({ prompt: 'go' });
  await done;
  await h.engine.whenQuiet(threadId);
  const child = h.runs().find((r) => r.agent === 'isolated')!;
  const delegated = h.events.find((e): e is RunEventOf<'tool.finished'> => e.kind === 'tool.finished' && e.tool === 'delegate_task')!;
  return {
    h,
    worktrees,
    child,
    delegated,
    results: (tool: string) =>
      h.events.filter((e): e is RunEventOf<'tool.finished'> => e.kind === 'tool.finished' && e.tool === tool).map((e) => e.output),
  };
}

async function world() {
  const w = await gitWorld({ 'a.txt': 'one\ntwo\nthree\n', 'keep.txt': 'k\n', '.gitignore': 'ignored/\n' });
  cleanup = w.cleanup;
  await w.put('a.txt', 'one\ntwo\nthree\nuncommitted\n');
  await w.put('untracked.txt', 'u\n');
  await w.put('ignored/big.bin', 'not copied\n');
  return { ...w, storage: join(w.base, 'storage') };
}

describe('worktree isolation', () => {
  it('works in a worktree of HEAD plus the uncommitted and untracked changes, confined there; the parent gets the diff summary', async () => {
    const w = await world();
    const one = (tool: string, input: unknown) => ({ toolCalls: [{ tool, input }] });
    const { child, delegated, worktrees, results } = await runIsolated(w.root, w.storage, [
      one('read_file', { path: 'a.txt' }),
      one('read_file', { path: 'untracked.txt' }),
      one('list_dir', { path: '.' }),
      one('edit_file', { path: 'a.txt', oldText: 'two', newText: 'TWO' }),
      one('write_file', { path: 'new.txt', content: 'new\n' }),
      one('write_file', { path: join(w.root, 'escape.txt'), content: 'x' }),
      one('run_command', { command: 'echo c >> keep.txt && git rev-parse --abbrev-ref HEAD' }),
    ]);
    // What it saw: the workspace as it was, the ignored folder left out.
    expect(results('edit_file')).toEqual([{ path: 'a.txt', line: 2 }]);
    const reads = results('read_file') as { content: string }[];
    expect(reads.map((r) => r.content)).toEqual(['     1\tone\n     2\ttwo\n     3\tthree\n     4\tuncommitted', '     1\tu']);
    expect((results('list_dir')[0] as { entries: string[] }).entries).not.toContain('ignored/');
    // Confined: an absolute path into the workspace is outside its root.
    expect(results('write_file')[1]).toMatchObject({ error: expect.stringContaining('it is outside the workspace') });
    expect(results('run_command')[0]).toMatchObject({ exitCode: 0, output: `subagents/${child.runId}\n` });
    // The workspace is untouched; the worktree has the work.
    expect(await w.read('a.txt')).toBe('one\ntwo\nthree\nuncommitted\n');
    expect(existsSync(join(w.root, 'new.txt'))).toBe(false);
    const pending = (await worktrees.get(child.runId))!;
    expect(pending.state).toBe('pending');
    expect(pending.path.startsWith(join(w.storage, 'worktrees'))).toBe(true);
    expect(await readFile(join(pending.path, 'a.txt'), 'utf8')).toBe('one\nTWO\nthree\nuncommitted\n');
    expect(pending.files).toEqual([
      { path: 'a.txt', status: 'modified', added: 1, removed: 1 },
      { path: 'keep.txt', status: 'modified', added: 1, removed: 0 },
      { path: 'new.txt', status: 'added', added: 1, removed: 0 },
    ]);
    // Its node counts the changes it made in the worktree; the parent reads where they are.
    expect(child.changes?.files.map((f) => f.path)).toEqual(['a.txt', 'new.txt', 'keep.txt']);
    const output = (delegated.output as { output: string }[])[0]!.output;
    expect(output).toContain(
      `This run worked in its own git worktree (branch subagents/${child.runId}), so its changes are NOT in the workspace yet: 3 files changed (+3 −1): a.txt (+1 −1), keep.txt (+1 −0), new.txt (added).`,
    );
    expect(w.git('branch', '--list', '--format=%(refname:short)', 'subagents/*').trim()).toBe(`subagents/${child.runId}`);
  });

  it('a run that changed nothing: the worktree and its branch are removed', async () => {
    const w = await world();
    const { child, worktrees, delegated } = await runIsolated(w.root, w.storage, [
      { toolCalls: [{ tool: 'read_file', input: { path: 'a.txt' } }] },
    ]);
    expect(await worktrees.get(child.runId)).toBeUndefined();
    expect(existsSync(join(w.storage, 'worktrees', child.runId))).toBe(false);
    expect(w.git('branch', '--list', '--format=%(refname:short)', 'subagents/*')).toBe('');
    expect((delegated.output as { output: string }[])[0]!.output).toContain('changed no files there; the worktree was removed');
  });

  it("apply without conflicts merges into the working tree (the user's own later change kept), then removes the worktree and branch", async () => {
    const w = await world();
    const { child, worktrees } = await runIsolated(w.root, w.storage, [
      {
        toolCalls: [
          { tool: 'edit_file', input: { path: 'a.txt', oldText: 'one', newText: 'ONE' } },
          { tool: 'write_file', input: { path: 'new.txt', content: 'new\n' } },
        ],
      },
    ]);
    // Meanwhile the user changed another line of the same file.
    await w.put('a.txt', 'one\ntwo\nthree\nuncommitted\nand the user added this\n');
    const result = await worktrees.apply(child.runId, nodeWorkspace({ root: w.root }));
    expect(result).toEqual({ applied: ['a.txt', 'new.txt'], conflicts: [] });
    expect(await w.read('a.txt')).toBe('ONE\ntwo\nthree\nuncommitted\nand the user added this\n');
    expect(await w.read('new.txt')).toBe('new\n');
    expect(await worktrees.get(child.runId)).toBeUndefined();
    expect(w.git('branch', '--list', '--format=%(refname:short)', 'subagents/*')).toBe('');
    expect(w.git('worktree', 'list').trim().split('\n')).toHaveLength(1);
  });

  it('apply with conflicts writes both versions between conflict markers and keeps the branch: nothing is lost', async () => {
    const w = await world();
    const { child, worktrees } = await runIsolated(w.root, w.storage, [
      {
        toolCalls: [
          { tool: 'edit_file', input: { path: 'a.txt', oldText: 'two', newText: 'two (run)' } },
          { tool: 'write_file', input: { path: 'keep.txt', content: 'k (run)\n' } },
        ],
      },
    ]);
    await w.put('a.txt', 'one\ntwo (user)\nthree\nuncommitted\n');
    const result = (await worktrees.apply(child.runId, nodeWorkspace({ root: w.root })))!;
    expect(result.applied).toEqual(['keep.txt']);
    expect(result.conflicts).toEqual([{ path: 'a.txt', reason: expect.stringContaining('both changed the same lines') }]);
    expect(result.keptBranch).toBe(`subagents/${child.runId}`);
    expect(await w.read('a.txt')).toBe(
      `one\n<<<<<<< workspace\ntwo (user)\n=======\ntwo (run)\n>>>>>>> run ${child.runId}\nthree\nuncommitted\n`,
    );
    expect(await w.read('keep.txt')).toBe('k (run)\n');
    expect(w.git('show', `subagents/${child.runId}:a.txt`)).toBe('one\ntwo (run)\nthree\nuncommitted\n');
    expect(await worktrees.get(child.runId)).toBeUndefined();
  });

  it('discard removes the worktree, its branch and its manifest; the workspace is as it was', async () => {
    const w = await world();
    const { child, worktrees } = await runIsolated(w.root, w.storage, [
      { toolCalls: [{ tool: 'write_file', input: { path: 'new.txt', content: 'new\n' } }] },
    ]);
    const pending = (await worktrees.get(child.runId))!;
    await worktrees.discard(pending);
    expect(existsSync(pending.path)).toBe(false);
    expect(await worktrees.get(child.runId)).toBeUndefined();
    expect(w.git('branch', '--list', '--format=%(refname:short)', 'subagents/*')).toBe('');
    expect(existsSync(join(w.root, 'new.txt'))).toBe(false);
  });

  it('start-up cleanup: a worktree no thread references goes, a pending apply stays; a stray folder git lists as no worktree stays and is reported', async () => {
    const w = await world();
    const first = await runIsolated(w.root, w.storage, [
      { toolCalls: [{ tool: 'write_file', input: { path: 'one.txt', content: '1\n' } }] },
    ]);
    const second = await runIsolated(w.root, w.storage, [
      { toolCalls: [{ tool: 'write_file', input: { path: 'two.txt', content: '2\n' } }] },
    ]);
    await mkdir(join(w.storage, 'worktrees', 'stray'));
    await writeFile(join(w.storage, 'worktrees', 'stray', 'x'), 'x');
    // The first run's thread was deleted; the second's is still there.
    const gone = first.child.threadId;
    const fresh = new Worktrees(join(w.storage, 'worktrees'));
    const report = await fresh.cleanup(async (id) => id !== gone);
    expect(report.removed).toEqual([first.child.runId]);
    expect(report.refused).toEqual([
      { name: 'stray', reason: expect.stringMatching(/lists it as no repository's worktree, so it was left in place/) },
    ]);
    expect(await fresh.get(first.child.runId)).toBeUndefined();
    expect((await fresh.get(second.child.runId))?.state).toBe('pending');
    expect(existsSync(join(w.storage, 'worktrees', 'stray', 'x'))).toBe(true);
    expect(w.git('branch', '--list', '--format=%(refname:short)', 'subagents/*').trim()).toBe(`subagents/${second.child.runId}`);
  });

  it('a file the checkout wrote just as the run started is as the run found it: writing it unread is not refused', async () => {
    const w = await world();
    // A checkout that ends the moment the run starts: every file in it carries the time it ended.
    class JustCheckedOut extends Worktrees {
      override async create(request: Parameters<Worktrees['create']>[0]) {
        const handle = await super.create(request);
        const now = new Date(handle.readyAt);
        await Promise.all(['a.txt', 'keep.txt', 'untracked.txt'].map((f) => utimes(join(handle.root, f), now, now)));
        return handle;
      }
    }
    const { child, results } = await runIsolated(
      w.root,
      w.storage,
      [{ toolCalls: [{ tool: 'write_file', input: { path: 'keep.txt', content: 'k (run)\n' } }] }],
      new JustCheckedOut(join(w.storage, 'worktrees')),
    );
    expect(results('write_file')).toEqual([{ path: 'keep.txt', created: false, chars: 8 }]);
    expect(w.git('show', `subagents/${child.runId}:keep.txt`)).toBe('k (run)\n');
  });

  it('MCP servers, which cannot be confined to the worktree, are not offered to its run, and its node says why', async () => {
    const w = await world();
    let connects = 0;
    const server = {
      name: 'fx',
      origin: 'user' as const,
      source: 'user settings',
      bareNames: false,
      config: { transport: 'stdio' as const, command: 'node', args: ['server.js'], env: {} },
    };
    const mcp = new McpHub({
      root: w.root,
      declarations: () => ({ servers: [server], problems: [] }),
      connect: async () => {
        connects++;
        throw new Error('no server in this test');
      },
    });
    const { child, h, results } = await runIsolated(
      w.root,
      w.storage,
      [{ toolCalls: [{ tool: 'mcp__fx__echo', input: { text: 'hi' } }] }],
      undefined,
      { toolSources: [mcpToolSource(mcp)] },
    );
    const supervisor = h.runs().find((r) => r.agent === 'supervisor')!;
    // The supervisor (in the workspace) was offered the server: it tried to start it.
    expect(supervisor.warnings.some((m) => m.includes('MCP server `fx` could not start'))).toBe(true);
    expect(connects).toBe(1);
    // The isolated run never started it, was not offered its tools, and says why.
    expect(child.warnings).toContain(
      'This run works in its own git worktree, so the tools of MCP servers (fx) are not offered to it: they act outside the worktree, where its changes could not be kept apart.',
    );
    expect(results('mcp__fx__echo')).toHaveLength(1);
    expect(JSON.stringify(results('mcp__fx__echo')[0])).toContain('There is no tool \\"mcp__fx__echo\\"');
  });

  it("the editor's tools, which act outside the worktree too, are not offered to its run even when its profile names them", async () => {
    const w = await world();
    const invoked: string[] = [];
    const catalog = {
      tools: () => [{ name: 'ext_lookup', description: 'Looks something up', tags: ['readonly'] }],
      invoke: async (name: string) => (invoked.push(name), [{ type: 'text' as const, text: 'found' }]),
    };
    const { child, results } = await runIsolated(w.root, w.storage, [{ toolCalls: [{ tool: 'ext_lookup', input: {} }] }], undefined, {
      toolSources: [editorToolSource(catalog)],
      tools: ['read_file', 'write_file', 'ext_lookup'],
    });
    expect(child.warnings).toContain(
      'This run works in its own git worktree, so the tools of editor tools (ext_lookup) are not offered to it: they act outside the worktree, where its changes could not be kept apart.',
    );
    expect(invoked).toEqual([]);
    expect(JSON.stringify(results('ext_lookup')[0])).toContain('There is no tool \\"ext_lookup\\"');
  });

  it('a workspace that is not a git repository: the run ends with a clear error', async () => {
    const w = await plainWorld({ 'a.txt': 'a\n' });
    cleanup = w.cleanup;
    const { child } = await runIsolated(w.root, join(w.base, 'storage'), [
      { toolCalls: [{ tool: 'write_file', input: { path: 'a.txt', content: 'b\n' } }] },
    ]);
    expect(child.state).toBe('error');
    expect(child.error).toMatch(
      /^The "isolated" profile runs in a git worktree \(isolation: worktree\), but the workspace .* is not in a git repository\. Run "git init" there/,
    );
    expect(await w.read('a.txt')).toBe('a\n');
  });

  it('thread storage inside the workspace: refused, never a worktree inside the workspace', async () => {
    const w = await world();
    const { child } = await runIsolated(w.root, join(w.root, '.subagents', 'threads'), [
      { toolCalls: [{ tool: 'write_file', input: { path: 'new.txt', content: 'x' } }] },
    ]);
    expect(child.state).toBe('error');
    expect(child.error).toContain('which are inside the workspace; keep the threads elsewhere');
    expect(w.git('worktree', 'list').trim().split('\n')).toHaveLength(1);
  });
});
