import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { JsonlThreadStore } from '../../../../src/core/storage/threads/jsonlThreadStore';
import type { UnsequencedRunEvent } from '../../../../src/shared/events';
import { call, jsonlWindow, text, type Reply } from './jsonlWindow';

// A reload is a new engine and a new store over the same directory (a new extension host).

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'resume-'));
  return () => rm(dir, { recursive: true, force: true });
});

const window = (reply: Reply) => jsonlWindow(dir, reply, { recoverInterrupted: true });

async function ask(w: ReturnType<typeof window>, prompt: string, threadId?: string) {
  const sent = await w.engine.send({ prompt, ...(threadId ? { threadId } : {}) });
  await sent.done;
  await w.engine.whenQuiet(sent.threadId);
  return sent.threadId;
}

describe('after a reload', () => {
  it("the supervisor's history includes the delegation results it had", async () => {
    const before = window((caller, n) =>
      caller.agent === 'supervisor'
        ? n === 0
          ? call('c1', 'delegate_task', { task: 'find the number', agents: ['a'] })
          : text('I asked a.')
        : text('The number is 4217.'),
    );
    const threadId = await ask(before, 'What is the number?');
    await before.store.closeAll();

    const after = window(() => text('It was 4217.'));
    await ask(after, 'Remind me: what did a find?', threadId);
    const prompt = JSON.stringify(after.prompts.get('supervisor')![0]);
    expect(prompt).toContain('What is the number?');
    expect(prompt).toContain('The number is 4217.');
    expect(prompt).toContain('delegate_task');
    expect(prompt).toContain('Remind me');
  });

  it('continuing a child thread sends the child its own history', async () => {
    let childThread = '';
    const before = window((caller, n) =>
      caller.agent === 'supervisor'
        ? n === 0
          ? call('c1', 'delegate_task', { task: 'pick a colour', agents: ['a'] })
          : text('ok')
        : text('I pick teal.'),
    );
    const threadId = await ask(before, 'start');
    childThread = (await before.store.list()).find((t) => t.parentThreadId === threadId)!.id;
    await before.store.closeAll();

    const after = window((caller, n) =>
      caller.agent === 'supervisor'
        ? n === 0
          ? call('c2', 'delegate_task', { task: 'which colour did you pick?', agents: ['a'], continueThreadId: childThread })
          : text('done')
        : text('teal'),
    );
    await ask(after, 'ask a again', threadId);
    const childPrompt = JSON.stringify(after.prompts.get('a')![0]);
    expect(childPrompt).toContain('pick a colour');
    expect(childPrompt).toContain('I pick teal.');
    expect(childPrompt).toContain('which colour did you pick?');
  });

  // Today's background start, and subagent_start of a thread written before it was folded into delegate_task.
  it.each([
    { tool: 'delegate_task', input: { task: 'watch the logs', agents: ['a'], background: true }, listed: true },
    { tool: 'subagent_start', input: { task: 'watch the logs', agent: 'a' }, listed: false },
  ])('a background child that was running is interrupted, and the next turn is told so with its partial output ($tool)', async (start) => {
    // The window that ran it crashed: its thread files end mid-run, and its leases are gone.
    const crashed = new JsonlThreadStore({ dir });
    const t = 't_crashed';
    const c = 'c_background';
    await crashed.open({ id: t, title: 'go', parentThreadId: null, agent: 'supervisor' });
    await crashed.open({ id: c, title: 'watch the logs', parentThreadId: t, agent: 'a' });
    const ev = (e: Record<string, unknown>) => crashed.append({ v: 1, ts: Date.now(), ...e } as UnsequencedRunEvent);
    ev({
      kind: 'run.started',
      threadId: t,
      runId: 'r_top',
      parentRunId: null,
      agent: 'supervisor',
      agentPath: ['supervisor'],
      depth: 0,
      task: 'go',
      model: 'm',
    });
    ev({
      kind: 'tool.started',
      threadId: t,
      runId: 'r_top',
      toolCallId: 'k1',
      tool: start.tool,
      input: start.input,
    });
    ev({
      kind: 'run.started',
      threadId: c,
      runId: 'r_bg',
      parentRunId: 'r_top',
      parentThreadId: t,
      parentToolCallId: 'k1',
      agent: 'a',
      agentPath: ['supervisor', 'a'],
      depth: 1,
      task: 'watch the logs',
      model: 'm',
    });
    ev({
      kind: 'tool.finished',
      threadId: t,
      runId: 'r_top',
      toolCallId: 'k1',
      tool: start.tool,
      output: start.listed
        ? [{ agent: 'a', status: 'started', runId: 'r_bg', threadId: c }]
        : { status: 'started', runId: 'r_bg', threadId: c },
      isError: false,
    });
    ev({ kind: 'text.delta', threadId: t, runId: 'r_top', text: 'Started a watcher.' });
    ev({ kind: 'text.delta', threadId: c, runId: 'r_bg', text: 'Saw 3 errors so far' });
    await crashed.closeAll();

    const after = window(() => text('Noted.'));
    const family = await after.store.getFamily(t);
    const bg = family!.events.find((e) => e.kind === 'run.finished' && e.runId === 'r_bg');
    expect(bg).toMatchObject({ status: 'interrupted', output: 'Saw 3 errors so far' });
    await ask(after, 'What did the watcher see?', t);
    const prompt = JSON.stringify(after.prompts.get('supervisor')![0]);
    expect(prompt).toContain('r_bg');
    expect(prompt).toMatch(/interrupted/);
    expect(prompt).toContain('Saw 3 errors so far');
    expect(prompt).toContain('What did the watcher see?');
  });
});
