import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PendingApprovals } from '../../../src/core/access/approvals/pendingApprovals';
import { makeEngine } from '../core/engineHarness';
import { panelOver } from './panelHarness';
import { makeWorld, snapshot, spyWorkspace, supervisorCalls } from '../core/tools/toolWorld';

let world: Awaited<ReturnType<typeof makeWorld>>;
beforeEach(async () => {
  world = await makeWorld();
  await writeFile(join(world.root, 'README.md'), 'hello\n');
});
afterEach(() => world.cleanup());

function setup(
  call: { tool: string; input: unknown } = { tool: 'write_file', input: { path: 'notes.txt', content: 'approved text' } },
  answer = true,
) {
  const approvals = new PendingApprovals();
  const spy = spyWorkspace(world.root);
  const h = makeEngine(supervisorCalls(call), { workspace: spy.workspace, approver: approvals });
  const allowed: string[] = [];
  const asked: string[] = [];
  const { controller, posted } = panelOver({
    engine: h.engine,
    store: h.store,
    approvals,
    confirm: async (message, action) => (asked.push(`${message} [${action}]`), answer),
    allowCommand: async (prefix) => void allowed.push(prefix),
  });
  const requested = new Promise<string>((resolve) => h.engine.onEvent((e) => e.kind === 'approval.requested' && resolve(e.approvalId)));
  const finished = new Promise<void>((resolve) => h.engine.onEvent((e) => e.kind === 'run.finished' && resolve()));
  return { controller, posted, requested, finished, allowed, asked, commands: spy.commands, h };
}

describe("the panel's Approve once / Deny", () => {
  it('Approve once lets the waiting call write', async () => {
    const { controller, requested, finished } = setup();
    await controller.receive({ type: 'send', text: 'go' });
    await controller.receive({ type: 'resolveApproval', approvalId: await requested, decision: 'approved' });
    await finished;
    expect(await readFile(join(world.root, 'notes.txt'), 'utf8')).toBe('approved text');
  });

  it('Deny leaves the disk as it was; a stale or unknown id is refused with a notice', async () => {
    const { controller, posted, requested, finished } = setup();
    await controller.receive({ type: 'send', text: 'go' });
    const id = await requested;
    await controller.receive({ type: 'resolveApproval', approvalId: id, decision: 'denied' });
    await finished;
    expect(await snapshot(world.root)).toEqual({ 'README.md': 'hello\n' });
    await controller.receive({ type: 'resolveApproval', approvalId: id, decision: 'approved' });
    expect(posted.at(-1)).toMatchObject({
      type: 'notice',
      level: 'error',
      message: 'That approval is no longer waiting: its run has already moved on.',
    });
  });
});

describe('"Always allow <prefix>" on a command approval', () => {
  const echo = { tool: 'run_command', input: { command: 'touch always   allowed' } };

  it('asks once, adds the first words to the user allowlist, and approves this command once', async () => {
    const { controller, posted, requested, finished, allowed, asked, commands } = setup(echo);
    await controller.receive({ type: 'send', text: 'go' });
    const id = await requested;
    await controller.receive({ type: 'alwaysAllow', approvalId: id, prefix: ' touch  always ' });
    await finished;
    expect(asked).toEqual(['Let agents run commands that start with "touch always" without asking? [Always Allow]']);
    expect(allowed).toEqual(['touch always']);
    expect(commands.map((c) => c.command)).toEqual(['touch always   allowed']);
    expect(posted.filter((m) => m.type === 'notice').at(-1)).toMatchObject({
      level: 'info',
      message: expect.stringMatching(/^Commands that start with "touch always" now run without asking/),
    });
    // A stale id is refused, and nothing more is added.
    await controller.receive({ type: 'alwaysAllow', approvalId: id, prefix: 'touch' });
    expect(posted.at(-1)).toMatchObject({
      type: 'notice',
      level: 'error',
      message: 'That approval is no longer waiting: its run has already moved on.',
    });
    expect(allowed).toEqual(['touch always']);
    // The approved command really runs (through the OS sandbox where there is one): more than vitest's 5 s on a busy machine.
  }, 30_000);

  it('adds nothing when the user says no, and the request still waits for Approve once or Deny', async () => {
    const { controller, requested, finished, allowed, commands, h } = setup(echo, false);
    await controller.receive({ type: 'send', text: 'go' });
    const id = await requested;
    await controller.receive({ type: 'alwaysAllow', approvalId: id, prefix: 'touch' });
    expect(allowed).toEqual([]);
    await controller.receive({ type: 'resolveApproval', approvalId: id, decision: 'denied' });
    await finished;
    expect(commands).toEqual([]);
    expect(h.events.filter((e) => e.kind === 'approval.resolved').map((e) => e.kind === 'approval.resolved' && e.decision)).toEqual([
      'denied',
    ]);
  });

  it('refuses a prefix that is not how the command starts, one with shell operators, and a request that is not a command', async () => {
    const cmd = setup(echo);
    await cmd.controller.receive({ type: 'send', text: 'go' });
    const id = await cmd.requested;
    for (const [prefix, why] of [
      ['rm', /"rm" is not how this command starts/],
      ['touch always allowed; rm -rf /', /not a plain command prefix/],
      ['touch alw', /not how this command starts/],
    ] as const) {
      await cmd.controller.receive({ type: 'alwaysAllow', approvalId: id, prefix });
      expect(cmd.posted.at(-1)).toMatchObject({ type: 'notice', level: 'error', message: expect.stringMatching(why) });
    }
    expect(cmd.allowed).toEqual([]);
    expect(cmd.asked).toEqual([]);
    await cmd.controller.receive({ type: 'resolveApproval', approvalId: id, decision: 'denied' });
    await cmd.finished;

    const write = setup();
    await write.controller.receive({ type: 'send', text: 'go' });
    await write.controller.receive({ type: 'alwaysAllow', approvalId: await write.requested, prefix: 'write_file' });
    expect(write.posted.at(-1)).toMatchObject({
      type: 'notice',
      level: 'error',
      message: '"Always allow" is for commands; approve this request once instead.',
    });
  });
});
