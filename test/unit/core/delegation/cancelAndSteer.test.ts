import { describe, expect, it } from 'vitest';
import type { RunEvent, RunEventOf } from '../../../../src/shared/events';
import { EngineRequestError } from '../../../../src/core/engine/engine';
import { enclosedText } from '../../../../src/core/access/untrusted/untrustedText';
import { agent, makeEngine } from '../engineHarness';
import { programmedModel, type ProgramContext, type ProgramStep } from '../programmedModel';

const toolOutputs = (events: RunEvent[], tool: string) =>
  events.filter((e): e is RunEventOf<'tool.finished'> => e.kind === 'tool.finished' && e.tool === tool).map((e) => e.output);
const NEVER = new Promise<ProgramStep>(() => {});
const agents = { a: agent('a'), b: agent('b'), c: agent('c') };

interface ModelResult {
  agent: string;
  runId: string;
  threadId: string;
  status: string;
  output: string;
  error?: string;
  usage: { totalTokens: number };
}

/** Resolves once `ready` holds, checked after each turn of the event loop (no fixed sleep). */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((r) => setImmediate(r));
}

/** Three children; b writes something, then hangs in its next model call until it is stopped. */
function threeChildren(supervisor: (ctx: ProgramContext) => ProgramStep | Promise<ProgramStep>) {
  let bHangs = false;
  let hung = () => {};
  const hanging = new Promise<void>((resolve) => (hung = resolve));
  const programs: Record<string, (ctx: ProgramContext) => ProgramStep | Promise<ProgramStep>> = {
    supervisor,
    a: () => ({ text: 'a: all 3 files read' }),
    c: () => ({ text: 'c: no problems' }),
    b: ({ call }) => {
      if (call === 0)
        return { text: 'b so far: read 2 of 5 files, found one bug in parse.ts', toolCalls: [{ tool: 'missing_tool', input: {} }] };
      bHangs = true;
      hung();
      return NEVER;
    },
  };
  const models = Object.fromEntries(Object.entries(programs).map(([name, p]) => [name, programmedModel(p)]));
  const h = makeEngine({ agents: {} }, { agents, model: (c) => models[c.agent] });
  return { ...h, hanging, bHangs: () => bHangs, run: (name: string) => h.runs().find((r) => r.agent === name)! };
}

describe('cancelling one child', () => {
  it('stops it and hands its partial output to the parent, which is not cancelled and is told the user stopped it', async () => {
    const h = threeChildren(({ call, lastToolOutput }) => {
      if (call === 0) return { toolCalls: [{ tool: 'delegate_task', input: { task: 'review', agents: ['a', 'b', 'c'] } }] };
      const b = (lastToolOutput() as ModelResult[]).find((r) => r.agent === 'b')!;
      return { text: `b was ${b.status} (${b.error}); what it had: ${enclosedText(b.output)}` };
    });
    const { threadId, done } = await h.engine.send({ prompt: 'review the code' });
    await until(h.bHangs);
    h.engine.cancelRun(h.run('b').runId, threadId);
    const finished = await done;

    expect(finished.status).toBe('ok');
    expect(finished.output).toBe(
      'b was cancelled (Stopped by the user (the Stop button on its node in the panel). The output is what it had done by then.); what it had: b so far: read 2 of 5 files, found one bug in parse.ts',
    );
    const results = (toolOutputs(h.events, 'delegate_task') as ModelResult[][])[0]!;
    expect(results.map((r) => [r.agent, r.status])).toEqual([
      ['a', 'ok'],
      ['b', 'cancelled'],
      ['c', 'ok'],
    ]);
    // What b's one finished call used still counts.
    expect(results[1]!.usage.totalTokens).toBe(5);
    expect(h.runs().map((r) => [r.agent, r.state])).toEqual([
      ['supervisor', 'ok'],
      ['a', 'ok'],
      ['b', 'cancelled'],
      ['c', 'ok'],
    ]);
  });

  it('Stop on the thread still stops everything', async () => {
    const h = threeChildren(({ call }) =>
      call === 0
        ? { toolCalls: [{ tool: 'delegate_task', input: { task: 'review', agents: ['a', 'b', 'c'] } }] }
        : { text: 'must not happen' },
    );
    const { threadId, done } = await h.engine.send({ prompt: 'review the code' });
    await until(h.bHangs);
    h.engine.cancel(threadId);
    expect((await done).status).toBe('cancelled');
    expect(h.run('b').state).toBe('cancelled');
    expect(h.run('b').error).toBeUndefined();
  });

  it("background_runs cancel returns the child's partial output, saying the supervisor cancelled it", async () => {
    let runId = '';
    let calls = 0;
    const h = threeChildren(({ call, lastToolOutput }) => {
      calls++;
      if (call === 0) return { toolCalls: [{ tool: 'delegate_task', input: { task: 'review', agents: ['b'], background: true } }] };
      if (call === 1) {
        runId = (lastToolOutput() as { runId: string }[])[0]!.runId;
        return h.hanging.then(() => ({ toolCalls: [{ tool: 'background_runs', input: { action: 'cancel', runIds: [runId] } }] }));
      }
      const [b] = lastToolOutput() as [ModelResult & { note?: string }];
      return { text: `${b.status}: ${b.note} | ${enclosedText(b.output)}` };
    });
    const finished = await (await h.engine.send({ prompt: 'go' })).done;
    expect(finished.output).toBe(
      'cancelled: Cancelled by its supervisor (background_runs). The output is what it had done by then. | b so far: read 2 of 5 files, found one bug in parse.ts',
    );
    // Its result came back from the tool: no announcement wakes the supervisor to say it again.
    expect(calls).toBe(3);
    // Cancelling is what the call was for: it answers the child's state, it did not fail.
    const cancel = h.events.find((e): e is RunEventOf<'tool.finished'> => e.kind === 'tool.finished' && e.tool === 'background_runs')!;
    expect(cancel.isError).toBe(false);
    expect((cancel.output as object[])[0]).not.toHaveProperty('error');
  });

  it('background_runs status of a child the user stopped answers its state (cancelled, with its partial output), not an error', async () => {
    let threadId = '';
    const h = threeChildren(({ call, lastToolOutput }) => {
      if (call === 0) return { toolCalls: [{ tool: 'delegate_task', input: { task: 'review', agents: ['b'], background: true } }] };
      if (call === 1) {
        const [{ runId }] = lastToolOutput() as [{ runId: string }];
        return h.hanging.then(async () => {
          h.engine.cancelRun(runId, threadId);
          await until(() => h.run('b').state === 'cancelled');
          return { toolCalls: [{ tool: 'background_runs', input: { action: 'status', runIds: [runId] } }] };
        });
      }
      const [b] = lastToolOutput() as [ModelResult & { note?: string }];
      return { text: `${b.status}: ${b.note} | ${enclosedText(b.output)}` };
    });
    const sent = await h.engine.send({ prompt: 'go' });
    threadId = sent.threadId;
    const finished = await sent.done;
    expect(finished.output).toBe(
      'cancelled: Stopped by the user (the Stop button on its node in the panel). The output is what it had done by then. | b so far: read 2 of 5 files, found one bug in parse.ts',
    );
    const status = h.events.find((e): e is RunEventOf<'tool.finished'> => e.kind === 'tool.finished' && e.tool === 'background_runs')!;
    expect(status.isError).toBe(false);
    expect(status.output).toMatchObject([{ status: 'cancelled' }]);
  });

  it('refuses a run of another conversation, and one that has finished', async () => {
    const h = makeEngine({ agents: { supervisor: [{ text: 'hi' }] } });
    const { runId, threadId, done } = await h.engine.send({ prompt: 'go' });
    expect(() => h.engine.cancelRun(runId, 'another-thread')).toThrow(
      /not working any more \(it has finished, or belongs to another conversation\)/,
    );
    await done;
    await h.engine.whenQuiet(threadId);
    expect(() => h.engine.cancelRun(runId, threadId)).toThrow(EngineRequestError);
    expect(() => h.engine.steerRun(runId, 'more', threadId)).toThrow(/not working any more/);
  });
});
