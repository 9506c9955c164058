import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EngineRequestError, type SendResult } from '../../../src/core/engine/engine';
import { createModelResolver } from '../../../src/core/models/createModelResolver';
import { nodeWorkspace } from '../../../src/core/engine/nodeWorkspace';
import type { Workspace } from '../../../src/core/ports';
import { newThreadId } from '../../../src/core/storage/threads/newThreadId';
import type { RunEvent, UnsequencedRunEvent } from '../../../src/shared/events';
import { MemoryThreadStore } from '../../../src/core/storage/threads/memoryThreadStore';
import { agent, makeEngine } from './engineHarness';

/** A store that refuses the events `fails` picks, as a full disk or a deleted thread would. */
class FailingStore extends MemoryThreadStore {
  constructor(private readonly fails: (event: UnsequencedRunEvent) => boolean) {
    super();
  }
  override append(event: UnsequencedRunEvent): RunEvent {
    if (this.fails(event)) throw new Error('ENOSPC: disk full');
    return super.append(event);
  }
}

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
    expect(finished).toMatchObject({
      kind: 'run.finished',
      runId,
      threadId,
      status: 'ok',
      output: 'one two three four five six seven eight nine ten',
    });
    // One burst (the scripted model's parts are all there at once) is one text.delta: textBursts.test.ts.
    const deltas = h.events.flatMap((e) => (e.kind === 'text.delta' ? [e.text] : []));
    expect(deltas.join('')).toBe('one two three four five six seven eight nine ten');
    // seq is strictly increasing per thread
    const seqs = h.events.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    expect((await h.store.get(threadId))!.events).toHaveLength(h.events.length);
  });

  it('gives conversations that start with the same question titles that tell them apart: " (2)", " (3)"', async () => {
    const h = makeEngine({ agents: { supervisor: [{ text: 'a' }, { text: 'b' }, { text: 'c' }, { text: 'd' }] } });
    const first = await h.engine.send({ prompt: 'Why is the total wrong?\nDetails here' });
    await first.done;
    const second = await h.engine.send({ prompt: 'Why is the total wrong?' });
    await second.done;
    // A follow-up in the first thread keeps its title.
    await (
      await h.engine.send({ prompt: 'Why is the total wrong?', threadId: first.threadId })
    ).done;
    const third = await h.engine.send({ prompt: 'Why is the total wrong?' });
    await third.done;
    const titles = new Map((await h.store.list()).map((t) => [t.id, t.title]));
    expect([titles.get(first.threadId), titles.get(second.threadId), titles.get(third.threadId)]).toEqual([
      'Why is the total wrong?',
      'Why is the total wrong? (2)',
      'Why is the total wrong? (3)',
    ]);
  });

  it('refuses a request when no model is configured, and leaves no empty thread behind', async () => {
    const h = makeEngine({ agents: {} }, { settings: { model: '' } });
    const refused = h.engine.send({ prompt: 'hello' });
    await expect(refused).rejects.toThrow(EngineRequestError);
    await expect(refused).rejects.toThrow(/No model is configured\. Set "subagents\.model"/);
    expect(await h.store.list()).toEqual([]);
    expect(h.events).toEqual([]);
  });

  it('refuses a request whose model cannot be made (a broken script), and leaves no empty thread behind', async () => {
    const h = makeEngine(
      { agents: {} },
      {
        createModelResolver: () =>
          createModelResolver({ workspaceRoot: '/', apiKey: () => undefined, specs: ['scripted:/no/such/script.json'] }),
      },
    );
    const threadId = newThreadId();
    const refused = h.engine.send({ threadId, prompt: 'hello' });
    await expect(refused).rejects.toThrow(EngineRequestError);
    await expect(refused).rejects.toThrow(/script\.json/);
    expect(await h.store.list()).toEqual([]);
    expect(h.engine.isBusy(threadId)).toBe(false);
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
              ? [
                  {
                    type: 'tool-call',
                    toolCallId: 'c1',
                    toolName: 'delegate_task',
                    input: JSON.stringify({ task: 'summarise X', agents: ['a'], context: 'X is in x.ts' }),
                  },
                  finish('tool-calls'),
                ]
              : text(`${caller.agent} answer`),
          ),
      },
    );
    await (
      await h.engine.send({ prompt: 'SECRET parent prompt' })
    ).done;
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

  it('makes a new thread under the id the host chose (newThreadId: an ACP session names its thread before the first prompt)', async () => {
    const h = makeEngine({ agents: {} }, { model: () => recordingModel([], () => text('answer')) });
    const chosen = newThreadId();
    const sent = await h.engine.send({ newThreadId: chosen, prompt: 'first question' });
    await sent.done;
    expect(sent.threadId).toBe(chosen);
    expect((await h.store.get(chosen))?.meta.title).toBe('first question');
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
    await (
      await h.engine.send({ prompt: 'one' })
    ).done;
    expect(h.events.filter((e) => e.kind === 'run.started')).toHaveLength(1);
    h.profiles.set('late', { name: 'late', description: 'added later', instructions: '', source: 'test' });
    await (
      await h.engine.send({ prompt: 'two' })
    ).done;
    expect(h.runs().map((r) => r.agent)).toEqual(['supervisor', 'supervisor', 'late']);
  });

  it('refuses a second message while the thread is working, naming no internal id', async () => {
    const h = makeEngine({ agents: { supervisor: [{ delayMs: 30_000, text: 'slow' }] } });
    const { threadId, runId, done } = await h.engine.send({ prompt: 'one' });
    const refusal = await h.engine.send({ threadId, prompt: 'two' }).catch((error: unknown) => error as Error);
    expect(refusal).toBeInstanceOf(EngineRequestError);
    expect((refusal as Error).message).toMatch(/still working/);
    expect((refusal as Error).message).not.toContain(runId);
    expect((refusal as Error).message).not.toContain(threadId);
    h.engine.cancel(threadId);
    expect((await done).status).toBe('cancelled');
  });

  it('starts one supervisor run for two sends on one thread in the same tick', async () => {
    const h = makeEngine({ agents: { supervisor: [{ text: 'first' }, { text: 'second' }] } });
    const threadId = newThreadId();
    const [one, two] = await Promise.allSettled([h.engine.send({ threadId, prompt: 'one' }), h.engine.send({ threadId, prompt: 'two' })]);
    expect(one.status).toBe('fulfilled');
    expect(two.status).toBe('rejected');
    const refusal = (two as PromiseRejectedResult).reason as Error;
    expect(refusal).toBeInstanceOf(EngineRequestError);
    expect(refusal.message).toMatch(/still working/);
    expect(refusal.message).not.toMatch(/r_[0-9a-f]{8}|t_/);
    // The thread counts as busy from the moment the first send accepted it.
    expect(h.engine.isBusy(threadId)).toBe(true);
    await (one as PromiseFulfilledResult<SendResult>).value.done;
    await h.engine.whenQuiet(threadId);
    expect(h.events.filter((e) => e.kind === 'run.started')).toHaveLength(1);
    expect(h.engine.isBusy(threadId)).toBe(false);
  });

  it('ends a run whose run.finished cannot be written: the thread is not left busy and whenQuiet returns', async () => {
    const store = new FailingStore((e) => e.kind === 'run.finished');
    const h = makeEngine({ agents: { supervisor: [{ text: 'answer' }] } }, { store });
    const { threadId, done } = await h.engine.send({ prompt: 'hello' });
    const failure = await done.then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(h.engine.isBusy(threadId)).toBe(false);
    await h.engine.whenQuiet(threadId);
    expect(failure?.message).toMatch(/could not be written.*disk full/);
  });

  it('stops a run whose thread cannot be written any more, and its parent goes on', async () => {
    // The child's thread fails from its first text on (deleted, or the disk is full).
    const store = new FailingStore((e) => e.kind === 'text.delta' && e.threadId !== rootThread);
    let rootThread = '';
    const h = makeEngine(
      { agents: { supervisor: [delegateTo('a'), { text: 'went on' }], a: [{ text: 'never stored' }, { text: 'nor this' }] } },
      { agents: { a: agent('a') }, store },
    );
    const sent = await h.engine.send({ prompt: 'go' });
    rootThread = sent.threadId;
    const finished = await sent.done;
    await h.engine.whenQuiet(sent.threadId);
    expect(finished).toMatchObject({ status: 'ok', output: 'went on' });
    const [result] = h.events.flatMap((e) =>
      e.kind === 'tool.finished' && e.tool === 'delegate_task' ? (e.output as { status: string; error: string }[]) : [],
    );
    expect(result).toMatchObject({ status: 'error', error: expect.stringMatching(/could not be written.*disk full/) });
    expect(h.engine.isBusy(sent.threadId)).toBe(false);
  });

  it('closes every tool call a stopped run left open, with an error, before its run.finished', async () => {
    let reading: () => void = () => {};
    const started = new Promise<void>((resolve) => (reading = resolve));
    const dir = await realpath(await mkdtemp(join(tmpdir(), 'subagents-stop-')));
    await writeFile(join(dir, 'big.txt'), 'x\n');
    const stuck: Workspace = {
      ...nodeWorkspace({ root: dir }),
      // A host read that never answers and does not listen to the signal.
      readFile: () => {
        reading();
        return new Promise<string>(() => {});
      },
    };
    const h = makeEngine(
      { agents: { supervisor: [{ toolCalls: [{ tool: 'read_file', input: { path: 'big.txt' } }] }, { text: 'never' }] } },
      { workspace: stuck },
    );
    const { threadId, done } = await h.engine.send({ prompt: 'read it' });
    await started;
    h.engine.cancel(threadId);
    const finished = await done;
    expect(finished.status).toBe('cancelled');
    const call = h.events.find((e) => e.kind === 'tool.started')!;
    const closed = h.events.findIndex((e) => e.kind === 'tool.finished' && e.toolCallId === (call as { toolCallId: string }).toolCallId);
    expect(closed).toBeGreaterThan(-1);
    expect(h.events[closed]).toMatchObject({ isError: true, output: expect.stringMatching(/cancelled/) });
    expect(closed).toBeLessThan(h.events.indexOf(finished));
    expect(h.tree().runs[finished.runId]!.toolCalls.every((t) => t.state !== 'running')).toBe(true);
    await rm(dir, { recursive: true, force: true });
  });
});
