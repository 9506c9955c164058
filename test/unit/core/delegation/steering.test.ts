import { describe, expect, it } from 'vitest';
import type { RunEvent, RunEventOf } from '../../../../src/shared/events';
import { agent, makeEngine } from '../engineHarness';
import { programmedModel, type ProgramContext, type ProgramStep } from '../programmedModel';

const toolOutputs = (events: RunEvent[], tool: string) =>
  events.filter((e): e is RunEventOf<'tool.finished'> => e.kind === 'tool.finished' && e.tool === tool).map((e) => e.output);
const messages = (events: RunEvent[]) => events.filter((e): e is RunEventOf<'run.message'> => e.kind === 'run.message');

/** A promise the test resolves when it wants, to hold a model call at work (no sleeps). */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((r) => setImmediate(r));
}

function engineWith(programs: Record<string, (ctx: ProgramContext) => ProgramStep | Promise<ProgramStep>>) {
  const models = Object.fromEntries(Object.entries(programs).map(([name, p]) => [name, programmedModel(p)]));
  const h = makeEngine({ agents: {} }, { agents: { worker: agent('works') }, model: (c) => models[c.agent] });
  return { ...h, run: (name: string) => h.runs().find((r) => r.agent === name) };
}

describe('steering a running child', () => {
  it('background_runs message reaches the child between its steps, as a turn from its supervisor; run.message records it', async () => {
    const held = gate();
    const seen: string[][] = [];
    let runId = '';
    const h = engineWith({
      supervisor: ({ call, lastToolOutput }) => {
        if (call === 0)
          return { toolCalls: [{ tool: 'delegate_task', input: { task: 'check src', agents: ['worker'], background: true } }] };
        if (call === 1) {
          runId = (lastToolOutput() as { runId: string }[])[0]!.runId;
          return {
            toolCalls: [
              { tool: 'background_runs', input: { action: 'message', runIds: [runId], message: 'Also check the tests folder.' } },
            ],
          };
        }
        if (call === 2) return { text: 'told it' };
        return { text: 'heard back' };
      },
      worker: async ({ call, userTexts }) => {
        seen.push(userTexts());
        if (call === 0) {
          await held.opened;
          return { text: 'src is fine.', toolCalls: [{ tool: 'missing_tool', input: {} }] };
        }
        return { text: 'tests are fine too.' };
      },
    });
    h.engine.onEvent((e) => e.kind === 'run.message' && held.open());
    const { threadId, done } = await h.engine.send({ prompt: 'go' });
    await done;
    await h.engine.whenQuiet(threadId);

    expect(toolOutputs(h.events, 'background_runs')).toEqual([
      [{ runId, delivered: true, note: 'It will see your message before its next model call.' }],
    ]);
    expect(messages(h.events)).toEqual([expect.objectContaining({ runId, from: 'parent', text: 'Also check the tests folder.' })]);
    // Not in its first call (already open); in its second, after its tool's result.
    expect(seen[0]).toEqual(['check src']);
    expect(seen[1]!.at(-1)).toBe(
      '[A message from your supervisor, the agent that gave you this task, sent while you work on it.]\nAlso check the tests folder.',
    );
    expect(h.tree().runs[runId]!.messages).toEqual([
      expect.objectContaining({ from: 'parent', text: 'Also check the tests folder.', afterToolCalls: 0 }),
    ]);
  });

  it('a message from the user that arrives during its last call gets a turn of its own', async () => {
    const held = gate();
    const seen: string[][] = [];
    const h = engineWith({
      supervisor: ({ call }) =>
        call === 0 ? { toolCalls: [{ tool: 'delegate_task', input: { task: 'summarise', agents: ['worker'] } }] } : { text: 'done' },
      worker: async ({ call, userTexts }) => {
        seen.push(userTexts());
        if (call === 0) {
          await held.opened;
          return { text: 'A long summary.' };
        }
        return { text: 'A short one.' };
      },
    });
    const { threadId, done } = await h.engine.send({ prompt: 'go' });
    await until(() => seen.length === 1);
    h.engine.steerRun(h.run('worker')!.runId, 'Keep it to one line.', threadId);
    held.open();
    await done;

    const worker = h.run('worker')!;
    expect(seen).toHaveLength(2);
    expect(seen[1]!.at(-1)).toBe(
      '[A message from the user, who is watching you work. It comes from the user directly: where it differs from your task, it takes precedence.]\nKeep it to one line.',
    );
    // Its result is its final report; both answers stay in its thread and the tree.
    expect(worker.output).toBe('A short one.');
    expect(worker.text).toBe('A long summary.\n\nA short one.');
    expect(messages(h.events)).toEqual([expect.objectContaining({ runId: worker.runId, from: 'user', text: 'Keep it to one line.' })]);
  });

  it('a child that has finished answers that it has finished, and how to continue its thread', async () => {
    let runId = '';
    const h = engineWith({
      supervisor: ({ call, lastToolOutput, userTexts }) => {
        if (call === 0) return { toolCalls: [{ tool: 'delegate_task', input: { task: 'quick', agents: ['worker'], background: true } }] };
        if (call === 1) {
          runId = (lastToolOutput() as { runId: string }[])[0]!.runId;
          return { text: 'waiting' };
        }
        // Woken by its report: the child has finished.
        expect(userTexts().at(-1)).toMatch(/^\[Background subagent finished\]/);
        if (call === 2)
          return { toolCalls: [{ tool: 'background_runs', input: { action: 'message', runIds: [runId], message: 'one more thing' } }] };
        return { text: 'ok' };
      },
      worker: () => ({ text: 'quick answer' }),
    });
    const { threadId, done } = await h.engine.send({ prompt: 'go' });
    await done;
    await h.engine.whenQuiet(threadId);
    const worker = h.run('worker')!;
    expect(toolOutputs(h.events, 'background_runs')).toEqual([
      [
        {
          runId,
          error: `Run ${runId} ("worker") has already finished (status ok), so it cannot take messages. To follow up, start it again with continueThreadId "${worker.threadId}" (delegate_task): it continues with its history.`,
          status: 'ok',
          threadId: worker.threadId,
        },
      ],
    ]);
    expect(messages(h.events)).toEqual([]);
  });

  it('a run waiting for its background children wakes for a message, without waiting for them', async () => {
    const held = gate();
    const supervisorSaw: string[][] = [];
    const h = engineWith({
      supervisor: ({ call, userTexts }) => {
        supervisorSaw.push(userTexts());
        if (call === 0)
          return { toolCalls: [{ tool: 'delegate_task', input: { task: 'slow job', agents: ['worker'], background: true } }] };
        if (call === 1) return { text: 'started it' };
        if (call === 2) return { text: 'noted' };
        return { text: 'got the report' };
      },
      worker: async () => {
        await held.opened;
        return { text: 'slow result' };
      },
    });
    const { runId, threadId, done } = await h.engine.send({ prompt: 'go' });
    // Its first turn is over; it waits for the worker, which is held.
    await until(
      () =>
        supervisorSaw.length === 2 && h.events.some((e) => e.kind === 'text.delta' && e.runId === runId && e.text.includes('started it')),
    );
    h.engine.steerRun(runId, 'Also write a summary.', threadId);
    await until(() => supervisorSaw.length === 3);
    expect(supervisorSaw[2]!.at(-1)).toMatch(/\nAlso write a summary\.$/);
    expect(h.run('worker')!.state).toBe('running');
    held.open();
    await done;
    expect(supervisorSaw).toHaveLength(4);
  });
});
