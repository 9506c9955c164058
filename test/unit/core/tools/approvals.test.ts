import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../../src/shared/events';
import { PendingApprovals } from '../../../../src/core/access/approvals/pendingApprovals';
import { agent, makeEngine } from '../engineHarness';
import { makeWorld, RecordingApprover, runScript, snapshot, spyWorkspace, supervisorCalls } from './toolWorld';

let world: Awaited<ReturnType<typeof makeWorld>>;
beforeEach(async () => {
  world = await makeWorld();
  await writeFile(join(world.root, 'README.md'), 'hello\n');
});
afterEach(() => world.cleanup());

const write = { tool: 'write_file', input: { path: 'notes.txt', content: 'x' } };
const command = { tool: 'run_command', input: { command: 'mkdir -p out && echo hi' } };
const install = { tool: 'install_package', input: { manager: 'npm', name: 'left-pad' } };

describe('approval modes', () => {
  async function asked(mode: 'ask' | 'autoEdit' | 'trust', call: { tool: string; input: unknown }) {
    const approver = new RecordingApprover(() => 'denied');
    await runScript(supervisorCalls(call), { root: world.root, approver, settings: { approval: mode } });
    return approver.requests.length > 0;
  }

  it('ask: writes, commands and installs ask', async () => {
    expect(await asked('ask', write)).toBe(true);
    expect(await asked('ask', command)).toBe(true);
    expect(await asked('ask', install)).toBe(true);
  });

  it('autoEdit: edits inside the workspace run unasked; commands and installs still ask', async () => {
    expect(await asked('autoEdit', write)).toBe(false);
    expect(await readFile(join(world.root, 'notes.txt'), 'utf8')).toBe('x');
    expect(await asked('autoEdit', command)).toBe(true);
    expect(await asked('autoEdit', install)).toBe(true);
  });

  it('trust: installs do not ask (the denying approver is never consulted)', async () => {
    const approver = new RecordingApprover(() => 'denied');
    const r = await runScript(supervisorCalls({ tool: 'install_extension', input: { id: 'publisher.tool' } }), {
      root: world.root,
      approver,
      settings: { approval: 'trust' },
    });
    expect(approver.requests).toEqual([]);
    expect(r.installs).toEqual(['publisher.tool']);
  });

  it('trust: commands run unasked', async () => {
    const approver = new RecordingApprover(() => 'denied');
    const r = await runScript(supervisorCalls(command), { root: world.root, approver, settings: { approval: 'trust' } });
    expect(approver.requests).toEqual([]);
    expect(r.toolResults('run_command')).toEqual([{ exitCode: 0, output: 'hi\n' }]);
  });

  it('with no approver, what needs approval is denied and says so', async () => {
    const r = await runScript(supervisorCalls(write), { root: world.root });
    expect((r.toolResults('write_file')[0] as { error: string }).error).toMatch(/was not run: .*no one is here to give it/);
    expect(await snapshot(world.root)).toEqual({ 'README.md': 'hello\n' });
  });
});

describe("a child's approval", () => {
  it('appears on its own node and pauses only that child; approving lets it write', async () => {
    const approvals = new PendingApprovals();
    const h = makeEngine(
      {
        agents: {
          supervisor: [{ toolCalls: [{ tool: 'delegate_task', input: { task: 't', agents: ['a', 'b'] } }] }, { text: 'done' }],
          a: [{ toolCalls: [write] }, { text: 'wrote it' }],
          b: [{ text: 'from b' }],
        },
      },
      { agents: { a: agent('A'), b: agent('B') }, workspace: spyWorkspace(world.root).workspace, approver: approvals },
    );
    const seen = (pred: (e: RunEvent) => boolean) =>
      new Promise<RunEvent>((resolve) => {
        const hit = h.events.find(pred);
        if (hit) return resolve(hit);
        const off = h.engine.onEvent((e) => {
          if (pred(e)) {
            off();
            resolve(e);
          }
        });
      });
    const { done } = await h.engine.send({ prompt: 'go' });
    const requested = await seen((e) => e.kind === 'approval.requested');
    const runOf = (runId: string) => h.tree().runs[runId]!;
    expect(runOf(requested.runId).agent).toBe('a');
    expect(requested.threadId).toBe(runOf(requested.runId).threadId);
    // b finishes while a waits for the user.
    const bFinished = await seen((e) => e.kind === 'run.finished' && runOf(e.runId).agent === 'b');
    expect(bFinished.kind === 'run.finished' && bFinished.status).toBe('ok');
    const aNode = runOf(requested.runId);
    expect(aNode.state).toBe('running');
    expect(aNode.toolCalls[0]!.approval).toMatchObject({ approvalId: (requested as { approvalId: string }).approvalId });
    expect(approvals.waiting().map((w) => [w.agent, w.tool])).toEqual([['a', 'write_file']]);

    expect(approvals.resolve((requested as { approvalId: string }).approvalId, 'approved')).toBe(true);
    expect((await done).status).toBe('ok');
    expect(await readFile(join(world.root, 'notes.txt'), 'utf8')).toBe('x');
    expect(runOf(requested.runId).toolCalls[0]!.approval?.decision).toBe('approved');
    // An id answers once.
    expect(approvals.resolve((requested as { approvalId: string }).approvalId, 'approved')).toBe(false);
  });

  it('is denied when its run is cancelled, and nothing is written', async () => {
    const approvals = new PendingApprovals();
    const h = makeEngine(supervisorCalls(write), { workspace: spyWorkspace(world.root).workspace, approver: approvals });
    const requested = new Promise<void>((resolve) => h.engine.onEvent((e) => e.kind === 'approval.requested' && resolve()));
    const { threadId, done } = await h.engine.send({ prompt: 'go' });
    await requested;
    h.engine.cancel(threadId);
    expect((await done).status).toBe('cancelled');
    expect(h.events.find((e) => e.kind === 'approval.resolved')).toMatchObject({ decision: 'denied', cancelled: 'stopped' });
    expect(approvals.waiting()).toEqual([]);
    expect(await snapshot(world.root)).toEqual({ 'README.md': 'hello\n' });
  });

  it('reads "cancelled (window reloaded)" when the window closes (cancelAll closing), and is not the user\'s denial', async () => {
    const approvals = new PendingApprovals();
    const h = makeEngine(supervisorCalls(write), { workspace: spyWorkspace(world.root).workspace, approver: approvals });
    const requested = new Promise<void>((resolve) => h.engine.onEvent((e) => e.kind === 'approval.requested' && resolve()));
    const { done } = await h.engine.send({ prompt: 'go' });
    await requested;
    h.engine.cancelAll('closing');
    expect((await done).status).toBe('cancelled');
    expect(h.events.find((e) => e.kind === 'approval.resolved')).toMatchObject({ decision: 'denied', cancelled: 'reloaded' });
    const finished = h.events.find((e) => e.kind === 'tool.finished');
    expect(JSON.stringify(finished)).not.toMatch(/The user denied/);
  });
});
