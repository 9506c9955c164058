import { afterEach, describe, expect, it, vi } from 'vitest';
import { agent, makeEngine } from '../engineHarness';
import { programmedModel, type ProgramContext } from '../programmedModel';

// The SDK replays a model's stream for every consumer after the first: each extra one tees the
// whole stream and runs every part through it again. The agent loop reads the stream once
// (fullStream) and must take what it needs after the turn (the step's messages) without a second
// consumer; awaiting result.steps was one, and cost about a third of a delegation's CPU.

afterEach(() => vi.restoreAllMocks());

describe('an agent run reads its model stream once', () => {
  it('tees each streamText once, so the parts pass through the SDK a single time', async () => {
    const h = makeEngine(
      {
        agents: {
          supervisor: [{ toolCalls: [{ tool: 'delegate_task', input: { task: 't', agents: ['a', 'b'] } }] }, { text: 'both reported' }],
          a: [{ text: 'from a' }],
          b: [{ text: 'from b' }],
        },
      },
      { agents: { a: agent('A.'), b: agent('B.') } },
    );
    const tee = vi.spyOn(ReadableStream.prototype, 'tee');
    const { threadId, done } = await h.engine.send({ prompt: 'go' });
    const finished = await done;
    await h.engine.whenQuiet(threadId);
    expect(finished).toMatchObject({ status: 'ok', output: 'both reported' });
    const runs = h.events.filter((e) => e.kind === 'run.started').length;
    expect(runs).toBe(3);
    // One streamText per run (the supervisor's two steps share one), each read by one consumer.
    expect(tee).toHaveBeenCalledTimes(runs);
  });

  it('still hands the turn on: a wake-up turn sends the first turn (tool call, result, answer)', async () => {
    let wakeUp: ProgramContext['prompt'] = [];
    const supervisor = programmedModel((ctx) => {
      if (ctx.call === 0) return { toolCalls: [{ tool: 'subagent_start', input: { task: 'slow job', agent: 'a' }, id: 'call-1' }] };
      if (ctx.call === 1) return { text: 'started it' };
      wakeUp = ctx.prompt;
      return { text: 'woken' };
    });
    const h = makeEngine({ agents: { a: [{ delayMs: 30, text: 'from a' }] } }, { agents: { a: agent('A.') }, model: (caller) => (caller.agent === 'supervisor' ? supervisor : undefined) });
    const { threadId, done } = await h.engine.send({ prompt: 'go' });
    expect(await done).toMatchObject({ status: 'ok', output: 'started it\n\nwoken' });
    await h.engine.whenQuiet(threadId);
    const kinds = wakeUp.filter((m) => m.role !== 'system').flatMap((m) => (typeof m.content === 'string' ? [`${m.role}:text`] : m.content.map((c) => `${m.role}:${c.type}`)));
    expect(kinds).toEqual(['user:text', 'assistant:tool-call', 'tool:tool-result', 'assistant:text', 'user:text']);
  });
});
