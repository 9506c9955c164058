import { describe, expect, it } from 'vitest';
import type { RunEvent, RunEventOf } from '../../../../src/shared/events';
import { agent, makeEngine } from '../engineHarness';
import { programmedModel, type ProgramContext, type ProgramStep } from '../programmedModel';
import { enclosedText } from '../../../../src/core/access/untrusted/untrustedText';

const toolOutputs = (events: RunEvent[], tool: string) =>
  events.filter((e): e is RunEventOf<'tool.finished'> => e.kind === 'tool.finished' && e.tool === tool).map((e) => e.output);

const agents = { a: agent('does a'), b: agent('does b') };

/** delegate_task with background: true, for one agent. */
const start = (agentName: string, task: string, more: Record<string, unknown> = {}) => ({
  tool: 'delegate_task',
  input: { task, agents: [agentName], background: true, ...more },
});
/** A background_runs call. */
const runs = (action: string, runIds: string[], more: Record<string, unknown> = {}) => ({
  tool: 'background_runs',
  input: { action, runIds, ...more },
});
/** The background_runs results of one action, in order. */
const runsOutputs = (events: RunEvent[], action: string) => {
  const calls = new Set(
    events.flatMap((e) =>
      e.kind === 'tool.started' && e.tool === 'background_runs' && (e.input as { action?: string }).action === action ? [e.toolCallId] : [],
    ),
  );
  return events.filter((e): e is RunEventOf<'tool.finished'> => e.kind === 'tool.finished' && calls.has(e.toolCallId)).map((e) => e.output);
};

/** An engine whose supervisor is programmed; the subagents play the script. */
function withSupervisor(
  script: Parameters<typeof makeEngine>[0],
  program: (ctx: ProgramContext) => ProgramStep,
  options: Parameters<typeof makeEngine>[1] = {},
) {
  const calls: ProgramContext[] = [];
  const recorded = programmedModel((ctx) => {
    calls.push(ctx);
    return program(ctx);
  });
  const h = makeEngine(script, { agents, ...options, model: (c) => (c.agent === 'supervisor' ? recorded : undefined) });
  return { ...h, calls };
}

describe('background subagents', () => {
  it('delegate_task with background: true returns at once; the report is announced once and wakes the parent for a new turn', async () => {
    const h = withSupervisor(
      { agents: { a: [{ delayMs: 60, text: 'slow result', usage: { inputTokens: 7, outputTokens: 2 } }] } },
      ({ call, userTexts }) => {
        if (call === 0) return { toolCalls: [start('a', 'slow job')] };
        if (call === 1) return { text: 'started it' };
        const report = userTexts().find((t) => t.startsWith('[Background subagent finished]'));
        return { text: `woken with: ${report?.split('\n').slice(1, 3).join(' | ')}` };
      },
    );
    const { threadId, done } = await h.engine.send({ prompt: 'go' });
    const finished = await done;
    await h.engine.whenQuiet(threadId);

    const started = (toolOutputs(h.events, 'delegate_task') as { status: string; runId: string }[][])[0]![0];
    expect(started!.status).toBe('started');
    const idx = (pred: (e: RunEvent) => boolean) => h.events.findIndex(pred);
    const childEnd = idx((e) => e.kind === 'run.finished' && e.runId === started!.runId);
    // The first turn answered before the child ended; the wake-up turn came after it.
    expect(idx((e) => e.kind === 'text.delta' && e.runId === finished.runId)).toBeLessThan(childEnd);
    expect(idx((e) => e.kind === 'run.finished' && e.runId === finished.runId)).toBeGreaterThan(childEnd);
    expect(finished.output).toBe(
      'started it\n\nwoken with: status: ok | stats: ' +
        (h.events[childEnd] as RunEventOf<'run.finished'>).durationMs +
        'ms · 7 in / 2 out',
    );
    expect(h.calls).toHaveLength(3);
    expect(h.calls[2]!.userTexts().filter((t) => t.startsWith('[Background subagent finished]'))).toHaveLength(1);
  });

  it('wait with a timeout gives a timedOut snapshot; cancel stops the run; nothing is announced twice', async () => {
    const h = withSupervisor({ agents: { a: [{ delayMs: 60_000, text: 'never' }] } }, ({ call, lastToolOutput }) => {
      if (call === 0) return { toolCalls: [start('a', 'slow')] };
      const out = lastToolOutput() as { runId: string }[];
      if (call === 1) return { toolCalls: [runs('wait', [out[0]!.runId], { timeoutMs: 30 })] };
      if (call === 2) return { toolCalls: [runs('cancel', [out[0]!.runId])] };
      return { text: 'gave up' };
    });
    const { done } = await h.engine.send({ prompt: 'go' });
    const finished = await done;
    const [snapshot] = runsOutputs(h.events, 'wait') as { status: string; timedOut: boolean }[][];
    expect(snapshot).toEqual([expect.objectContaining({ status: 'running', timedOut: true })]);
    expect(runsOutputs(h.events, 'cancel')).toEqual([[expect.objectContaining({ status: 'cancelled' })]]);
    expect(finished.output).toBe('gave up');
    // Cancelled through a tool: its result was delivered there, so no announcement and no 5th call.
    expect(h.calls).toHaveLength(4);
  });

  it('polls with background_runs wait 20 times in a row without piling up abort listeners', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => void warnings.push(w);
    process.on('warning', onWarning);
    try {
      const h = withSupervisor({ agents: { a: [{ delayMs: 60_000, text: 'never' }] } }, ({ call, lastToolOutput }) => {
        if (call === 0) return { toolCalls: [start('a', 'slow')] };
        if (call === 1) runId = (lastToolOutput() as { runId: string }[])[0]!.runId;
        if (call <= 20) return { toolCalls: [runs('wait', [runId], { timeoutMs: 1 })] };
        if (call === 21) return { toolCalls: [runs('cancel', [runId])] };
        return { text: 'gave up' };
      });
      let runId = '';
      const { threadId, done } = await h.engine.send({ prompt: 'go' });
      expect((await done).output).toBe('gave up');
      await h.engine.whenQuiet(threadId);
      const polls = runsOutputs(h.events, 'wait') as { timedOut: boolean }[][];
      expect(polls).toHaveLength(20);
      expect(polls.every((p) => p[0]!.timedOut)).toBe(true);
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('status shows the last progress items and the output; wait returns the result instead of an announcement', async () => {
    const h = withSupervisor(
      { agents: { a: [{ toolCalls: [{ tool: 'nope', input: {} }] }, { text: 'child done' }] } },
      ({ call, lastToolOutput }) => {
        const out = lastToolOutput() as { runId: string }[];
        if (call === 0) return { toolCalls: [start('a', 't')] };
        if (call === 1) return { toolCalls: [runs('wait', [out[0]!.runId])] };
        if (call === 2) return { toolCalls: [runs('status', [out[0]!.runId])] };
        return { text: 'end' };
      },
    );
    await (
      await h.engine.send({ prompt: 'go' })
    ).done;
    const [awaited] = runsOutputs(h.events, 'wait') as { status: string; output: string }[][];
    expect(awaited).toEqual([expect.objectContaining({ status: 'ok' })]);
    expect(enclosedText(awaited![0]!.output)).toBe('child done');
    const status = (runsOutputs(h.events, 'status') as { output: string; progress: string[] }[][])[0]![0];
    expect(enclosedText(status!.output)).toBe('child done');
    expect(status!.progress).toEqual(['called nope', 'nope failed']);
    expect(h.calls).toHaveLength(4);
  });

  it('refuses status, await and cancel for runs the caller did not start, naming its own', async () => {
    const h = withSupervisor({ agents: {} }, ({ call }) =>
      call === 0
        ? {
            toolCalls: [
              runs('status', ['r_someone_else']),
              runs('wait', ['r_someone_else']),
              runs('cancel', ['r_someone_else']),
              runs('message', ['r_someone_else'], { message: 'hi' }),
            ],
          }
        : { text: 'ok' },
    );
    await (
      await h.engine.send({ prompt: 'go' })
    ).done;
    for (const action of ['status', 'wait', 'cancel', 'message']) {
      expect(runsOutputs(h.events, action)).toEqual([
        { error: expect.stringMatching(/Run r_someone_else was not started by this run.*\(none\)/) },
      ]);
    }
  });

  it('answers busy for a continued thread that is still working and queues nothing; a replayed call returns the existing run', async () => {
    const h = withSupervisor({ agents: { a: [{ delayMs: 100, text: 'first' }, { text: 'unused' }] } }, ({ call, lastToolOutput }) => {
      const out = lastToolOutput() as { runId: string; threadId: string }[];
      if (call === 0) return { toolCalls: [{ ...start('a', 't'), id: 'same-call' }] };
      if (call === 1) return { toolCalls: [start('a', 'more', { continueThreadId: out[0]!.threadId })] };
      if (call === 2) return { toolCalls: [{ ...start('a', 't'), id: 'same-call' }] };
      return { text: 'end' };
    });
    const { done } = await h.engine.send({ prompt: 'go' });
    await done;
    const [started, busy, replay] = (toolOutputs(h.events, 'delegate_task') as { status: string; runId: string; threadId: string }[][]).map(
      (answers) => answers[0],
    );
    expect(busy).toMatchObject({ status: 'busy', runId: started!.runId, threadId: started!.threadId });
    expect(replay).toMatchObject({ status: 'existing', runId: started!.runId, threadId: started!.threadId });
    // Only one child run ever started.
    expect(h.events.filter((e) => e.kind === 'run.started' && e.agent === 'a')).toHaveLength(1);
  });

  it('refuses a new child past maxActiveChildren, naming the limit and the current value', async () => {
    const h = withSupervisor(
      { agents: { a: [{ delayMs: 40, text: 'a' }], b: [{ text: 'b' }] } },
      ({ call }) =>
        call === 0
          ? {
              toolCalls: [start('a', 't'), start('b', 't')],
            }
          : { text: 'end' },
      { settings: { maxActiveChildren: 1 } },
    );
    await (
      await h.engine.send({ prompt: 'go' })
    ).done;
    // The refused call is an error (nothing started); the other answers its run.
    const outputs = (
      toolOutputs(h.events, 'delegate_task') as ({ status?: string; error?: string }[] | { status?: string; error?: string })[]
    ).flat();
    expect(outputs.filter((o) => o.status === 'started')).toHaveLength(1);
    expect(outputs.find((o) => o.error)?.error).toMatch(/subagents\.maxActiveChildren is 1 and this run already has 1 working/);
  });

  it('starts a task each in the background with tasks, and waits for them together', async () => {
    const h = withSupervisor({ agents: { a: [{ delayMs: 20, text: 'from a' }], b: [{ text: 'from b' }] } }, ({ call, lastToolOutput }) => {
      if (call === 0)
        return {
          toolCalls: [
            {
              tool: 'delegate_task',
              input: {
                tasks: [
                  { agent: 'a', task: 'one' },
                  { agent: 'b', task: 'two' },
                ],
                background: true,
              },
            },
          ],
        };
      if (call === 1)
        return {
          toolCalls: [
            runs(
              'wait',
              (lastToolOutput() as { runId: string }[]).map((r) => r.runId),
            ),
          ],
        };
      return { text: 'both back' };
    });
    const { threadId, done } = await h.engine.send({ prompt: 'go' });
    expect((await done).output).toBe('both back');
    await h.engine.whenQuiet(threadId);
    const [starts] = toolOutputs(h.events, 'delegate_task') as { agent: string; status: string }[][];
    expect(starts!.map((r) => [r.agent, r.status])).toEqual([
      ['a', 'started'],
      ['b', 'started'],
    ]);
    const [results] = runsOutputs(h.events, 'wait') as { agent: string; output: string }[][];
    expect(results!.map((r) => [r.agent, enclosedText(r.output)])).toEqual([
      ['a', 'from a'],
      ['b', 'from b'],
    ]);
    // Their results came back from the wait: no announcement wakes the supervisor again.
    expect(h.calls).toHaveLength(3);
  });

  it('says what is wrong with a message action that has no message, and a message on another action', async () => {
    const h = withSupervisor({ agents: { a: [{ delayMs: 60_000, text: 'never' }] } }, ({ call, lastToolOutput }) => {
      if (call === 0) return { toolCalls: [start('a', 'slow')] };
      if (call === 1) {
        const runId = (lastToolOutput() as { runId: string }[])[0]!.runId;
        return { toolCalls: [runs('message', [runId]), runs('status', [runId], { message: 'hi' }), runs('cancel', [runId])] };
      }
      return { text: 'done' };
    });
    await (
      await h.engine.send({ prompt: 'go' })
    ).done;
    expect(runsOutputs(h.events, 'message')).toEqual([{ error: expect.stringMatching(/needs a non-empty "message"/) }]);
    expect(runsOutputs(h.events, 'status')).toEqual([{ error: expect.stringMatching(/"message" goes with action "message"/) }]);
  });
});
