import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { APICallError } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { agent, makeEngine } from '../engineHarness';
import { programmedModel, type ProgramContext } from '../programmedModel';

// streamText keeps every part so that any number of consumers can replay the stream: each one,
// the first too, gets a tee of the whole stream, and every part passes through it. The agent loop
// reads the stream once (fullStream) and takes what it needs after the turn (the step's messages)
// from onStepEnd, so it asks the SDK for a single-consumer stream, which is never teed. Awaiting
// result.steps was a second consumer and cost about a third of a delegation's CPU; the first
// consumer's tee cost about a tenth of a delegation's time at L = 0 (3 ms of 29 at 3 children).

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

/** Counts the ReadableStreams made by our own code (src/core), not by the SDK or the test's models. */
function countOurStreams(): { readonly count: number } {
  const counter = { count: 0 };
  const Platform = ReadableStream;
  vi.stubGlobal(
    'ReadableStream',
    class extends Platform<unknown> {
      constructor(...args: ConstructorParameters<typeof Platform<unknown>>) {
        super(...args);
        // The frame that called the constructor; the scripted model's own streams are the provider's.
        const caller = new Error().stack?.split('\n')[2] ?? '';
        if (/[\\/]src[\\/]core[\\/]/.test(caller) && !/scriptedModel/.test(caller)) counter.count++;
      }
    },
  );
  return counter;
}

/** A model whose first call answers and then fails with a 503 part (a server that sends 200, then an error), and answers after. */
function failsOnceWithAPart(text: string) {
  let calls = 0;
  const stream = (parts: LanguageModelV4StreamPart[]) =>
    new ReadableStream<LanguageModelV4StreamPart>({ start: (c) => (parts.forEach((p) => c.enqueue(p)), c.close()) });
  const usage = { inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 2, text: 2, reasoning: 0 } };
  return new MockLanguageModelV4({
    doStream: async () => ({
      stream:
        calls++ === 0
          ? stream([
              { type: 'stream-start', warnings: [] },
              {
                type: 'error',
                error: new APICallError({
                  message: 'overloaded',
                  url: 'http://model',
                  requestBodyValues: {},
                  statusCode: 503,
                  responseHeaders: { 'retry-after-ms': '0' },
                }),
              },
            ])
          : stream([
              { type: 'stream-start', warnings: [] },
              { type: 'text-start', id: 't' },
              { type: 'text-delta', id: 't', delta: text },
              { type: 'text-end', id: 't' },
              { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
            ]),
    }),
  });
}

describe('an agent run reads its model stream once', () => {
  it('never tees a model stream: each run reads a single-consumer stream, so the parts pass through the SDK a single time', async () => {
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
    // One stream per run (the supervisor's two steps share one), read by its one consumer untouched.
    expect(tee).not.toHaveBeenCalled();
  });

  it("adds one stream layer of ours to each model call: the retries, the work slot and the usage meter share the idle watch's", async () => {
    const h = makeEngine(
      {
        agents: {
          supervisor: [{ toolCalls: [{ tool: 'delegate_task', input: { task: 't', agents: ['a', 'b'] } }] }, { text: 'both reported' }],
          a: [{ text: 'from a' }],
          b: [{ text: 'from b' }],
        },
      },
      // One slot for two children: each child's call holds it, so every layer is there.
      { agents: { a: agent('A.'), b: agent('B.') }, settings: { maxConcurrency: 1 } },
    );
    const ours = countOurStreams();
    const { threadId, done } = await h.engine.send({ prompt: 'go' });
    expect(await done).toMatchObject({ status: 'ok', output: 'both reported' });
    await h.engine.whenQuiet(threadId);
    // Four model calls: the supervisor's two steps and one for each child.
    expect(ours.count).toBe(4);
    // The slot went back after each child's stream (the second child could not have run otherwise).
    expect(h.events.filter((e) => e.kind === 'run.finished').map((e) => e.kind === 'run.finished' && e.status)).toEqual(['ok', 'ok', 'ok']);
  });

  it('retries a call whose stream fails before its first content, through that one layer', async () => {
    const h = makeEngine(
      { agents: {} },
      { agents: { a: agent('A.') }, model: (caller) => (caller.agent === 'supervisor' ? failsOnceWithAPart('after a retry') : undefined) },
    );
    const finished = await (await h.engine.send({ prompt: 'go' })).done;
    expect(finished).toMatchObject({ status: 'ok', output: 'after a retry' });
    expect(h.events.filter((e) => e.kind === 'run.retrying').map((e) => e.kind === 'run.retrying' && e.error)).toEqual(['503: overloaded']);
  });

  it('still hands the turn on: a wake-up turn sends the first turn (tool call, result, answer)', async () => {
    let wakeUp: ProgramContext['prompt'] = [];
    const supervisor = programmedModel((ctx) => {
      if (ctx.call === 0)
        return { toolCalls: [{ tool: 'delegate_task', input: { task: 'slow job', agents: ['a'], background: true }, id: 'call-1' }] };
      if (ctx.call === 1) return { text: 'started it' };
      wakeUp = ctx.prompt;
      return { text: 'woken' };
    });
    const h = makeEngine(
      { agents: { a: [{ delayMs: 30, text: 'from a' }] } },
      { agents: { a: agent('A.') }, model: (caller) => (caller.agent === 'supervisor' ? supervisor : undefined) },
    );
    const { threadId, done } = await h.engine.send({ prompt: 'go' });
    expect(await done).toMatchObject({ status: 'ok', output: 'started it\n\nwoken' });
    await h.engine.whenQuiet(threadId);
    const kinds = wakeUp
      .filter((m) => m.role !== 'system')
      .flatMap((m) => (typeof m.content === 'string' ? [`${m.role}:text`] : m.content.map((c) => `${m.role}:${c.type}`)));
    expect(kinds).toEqual(['user:text', 'assistant:tool-call', 'tool:tool-result', 'assistant:text', 'user:text']);
  });
});
