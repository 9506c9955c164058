import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { EngineRequestError } from '../../../src/core/engine';
import { agent, makeEngine } from './engineHarness';

/** A mock model that records each call's prompt and answers with a tool call or text. */
function recordingModel(prompts: LanguageModelV4CallOptions['prompt'][], reply: (call: number) => LanguageModelV4StreamPart[]) {
  let calls = 0;
  return new MockLanguageModelV4({
    doStream: async (options) => {
      prompts.push(options.prompt);
      const parts = reply(calls++);
      const all: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }, ...parts];
      return {
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          start(c) {
            for (const p of all) c.enqueue(p);
            c.close();
          },
        }),
      };
    },
  });
}

const delegateTo = (agent: string) => ({ toolCalls: [{ tool: 'delegate_task', input: { task: 't', agents: [agent] } }] });

const finish = (unified: 'stop' | 'tool-calls'): LanguageModelV4StreamPart => ({
  type: 'finish',
  finishReason: { unified, raw: unified },
  usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } },
});
const text = (t: string): LanguageModelV4StreamPart[] => [
  { type: 'text-start', id: '1' },
  { type: 'text-delta', id: '1', delta: t },
  { type: 'text-end', id: '1' },
  finish('stop'),
];

describe('Engine', () => {
  it('streams the supervisor answer as text deltas and finishes ok', async () => {
    const h = makeEngine({ agents: { supervisor: [{ text: 'one two three four five six seven eight nine ten' }] } });
    const { threadId, runId, done } = await h.engine.send({ prompt: 'hello' });
    const finished = await done;
    expect(finished).toMatchObject({ kind: 'run.finished', runId, threadId, status: 'ok', output: 'one two three four five six seven eight nine ten' });
    const deltas = h.events.filter((e) => e.kind === 'text.delta');
    expect(deltas.length).toBeGreaterThan(1);
    // seq is strictly increasing per thread
    const seqs = h.events.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    expect((await h.store.get(threadId))!.events).toHaveLength(h.events.length);
  });

  it('ends with a clear error when no model is configured', async () => {
    const h = makeEngine({ agents: {} }, { settings: { model: '' } });
    const finished = await (await h.engine.send({ prompt: 'hello' })).done;
    expect(finished.status).toBe('error');
    expect(finished.error).toMatch(/No model is configured\. Set "subagents\.model"/);
  });

  it('refuses an empty prompt and an unknown top agent with a message', async () => {
    const h = makeEngine({ agents: {} });
    await expect(h.engine.send({ prompt: '  ' })).rejects.toThrow(EngineRequestError);
    await expect(h.engine.send({ prompt: 'x', agent: 'ghost' })).rejects.toThrow(/no enabled agent "ghost"/);
  });

  it('gives a child only its task and the explicit context, not the parent history', async () => {
    const prompts: Record<string, LanguageModelV4CallOptions['prompt'][]> = { supervisor: [], a: [] };
    const h = makeEngine(
      { agents: {} },
      {
        agents: { a: agent('helper', { instructions: 'You are A.' }) },
        model: (caller) =>
          recordingModel(prompts[caller.agent]!, (call) =>
            caller.agent === 'supervisor' && call === 0
              ? [{ type: 'tool-call', toolCallId: 'c1', toolName: 'delegate_task', input: JSON.stringify({ task: 'summarise X', agents: ['a'], context: 'X is in x.ts' }) }, finish('tool-calls')]
              : text(`${caller.agent} answer`),
          ),
      },
    );
    await (await h.engine.send({ prompt: 'SECRET parent prompt' })).done;
    const childPrompt = JSON.stringify(prompts.a![0]);
    expect(childPrompt).toContain('summarise X');
    expect(childPrompt).toContain('X is in x.ts');
    expect(childPrompt).toContain('You are A.');
    expect(childPrompt).not.toContain('SECRET');
    // The supervisor's prompt lists the agent as name: description.
    expect(JSON.stringify(prompts.supervisor![0])).toContain('- a: helper');
  });

  it('continues a thread with its history on the next message', async () => {
    const prompts: LanguageModelV4CallOptions['prompt'][] = [];
    const h = makeEngine({ agents: {} }, { model: () => recordingModel(prompts, () => text('answer')) });
    const first = await h.engine.send({ prompt: 'first question' });
    await first.done;
    const second = await h.engine.send({ threadId: first.threadId, prompt: 'second question' });
    await second.done;
    const last = JSON.stringify(prompts[1]);
    expect(last).toContain('first question');
    expect(last).toContain('second question');
    expect(h.tree().roots).toHaveLength(2);
  });

  it('has no delegation tool at maxDepth 0: a call to it fails as a tool error, the run goes on', async () => {
    const h = makeEngine(
      { agents: { supervisor: [{ toolCalls: [{ tool: 'delegate_task', input: { task: 't', agents: ['a'] } }] }, { text: 'myself' }] } },
      { agents: { a: agent('helper') }, settings: { maxDepth: 0 } },
    );
    const finished = await (await h.engine.send({ prompt: 'go' })).done;
    expect(finished.output).toBe('myself');
    const tool = h.events.find((e) => e.kind === 'tool.finished');
    expect(tool && tool.kind === 'tool.finished' && tool.isError).toBe(true);
    expect(h.runs()).toHaveLength(1);
  });

  it('cancels the whole tree and writes nothing for a run after its run.finished', async () => {
    const h = makeEngine(
      {
        agents: {
          supervisor: [{ toolCalls: [{ tool: 'delegate_task', input: { task: 't', agents: ['a', 'b'] } }] }, { text: 'never' }],
          a: [{ delayMs: 30_000, text: 'late' }],
          b: [{ delayMs: 30_000, text: 'late' }],
        },
      },
      { agents: { a: agent('a'), b: agent('b') } },
    );
    const { threadId, done } = await h.engine.send({ prompt: 'go' });
    // Cancel once both children have started.
    await new Promise<void>((resolve) => {
      const off = h.engine.onEvent(() => {
        if (h.events.filter((e) => e.kind === 'run.started').length === 3) {
          off();
          resolve();
        }
      });
    });
    const t0 = Date.now();
    h.engine.cancel(threadId);
    const finished = await done;
    await h.engine.whenQuiet(threadId);
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(finished.status).toBe('cancelled');
    expect(h.runs().map((r) => r.state)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    for (const run of h.runs()) {
      const evs = h.events.filter((e) => e.runId === run.runId);
      expect(evs.at(-1)!.kind).toBe('run.finished');
      expect(evs.filter((e) => e.kind === 'run.finished')).toHaveLength(1);
    }
    expect(h.engine.isBusy(threadId)).toBe(false);
  });

  it('reads profiles and settings at each request, so a change applies to the next one', async () => {
    const h = makeEngine(
      { agents: { supervisor: [delegateTo('late'), { text: 'done' }], late: [{ text: 'I exist now' }] } },
      { agents: {} },
    );
    await (await h.engine.send({ prompt: 'one' })).done;
    expect(h.events.filter((e) => e.kind === 'run.started')).toHaveLength(1);
    h.profiles.set('late', { name: 'late', description: 'added later', instructions: '', source: 'test' });
    await (await h.engine.send({ prompt: 'two' })).done;
    expect(h.runs().map((r) => r.agent)).toEqual(['supervisor', 'supervisor', 'late']);
  });

  it('refuses a second message while the thread is working', async () => {
    const h = makeEngine({ agents: { supervisor: [{ delayMs: 30_000, text: 'slow' }] } });
    const { threadId, done } = await h.engine.send({ prompt: 'one' });
    await expect(h.engine.send({ threadId, prompt: 'two' })).rejects.toThrow(/still working/);
    h.engine.cancel(threadId);
    expect((await done).status).toBe('cancelled');
  });
});
