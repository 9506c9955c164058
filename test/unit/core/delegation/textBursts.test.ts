import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../../src/shared/events';
import { agent, makeEngine } from '../engineHarness';

// A model's text often comes in bursts: many deltas in one network read (a fast or local model),
// all of them there before the run reads the first. Each burst is one text.delta (one line in the
// thread file, one event for the listeners), written when the burst ends; text that comes apart
// in time is written as it comes, and a run's other events keep their place after its text.

const usage = { inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 2, text: 2, reasoning: 0 } };
const finish: LanguageModelV4StreamPart = { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage };

/** A model that streams `first`, then waits for the test's `release()`, then streams `second`. */
function pausingModel(first: string[], second: string[]) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const model = new MockLanguageModelV4({
    doStream: async () => ({
      stream: new ReadableStream<LanguageModelV4StreamPart>({
        async start(controller) {
          controller.enqueue({ type: 'stream-start', warnings: [] });
          controller.enqueue({ type: 'text-start', id: 't' });
          for (const delta of first) controller.enqueue({ type: 'text-delta', id: 't', delta });
          await released;
          for (const delta of second) controller.enqueue({ type: 'text-delta', id: 't', delta });
          controller.enqueue({ type: 'text-end', id: 't' });
          controller.enqueue(finish);
          controller.close();
        },
      }),
    }),
  });
  return { model, release: () => release() };
}

const texts = (events: RunEvent[]) => events.flatMap((e) => (e.kind === 'text.delta' ? [e.text] : []));

describe('streamed text is written a burst at a time', () => {
  it('writes a burst of 50 deltas as one text.delta, in the store as for the listeners', async () => {
    const words = Array.from({ length: 50 }, (_, i) => `word${i}`).join(' ');
    const h = makeEngine({ agents: { supervisor: [{ text: words, chunks: 50 }] } });
    const { threadId, done } = await h.engine.send({ prompt: 'go' });
    expect(await done).toMatchObject({ status: 'ok', output: words });
    await h.engine.whenQuiet(threadId);
    expect(texts(h.events)).toEqual([words]);
    const stored = await h.store.get(threadId);
    expect(texts(stored!.events)).toEqual([words]);
  });

  it("writes text that comes apart in time as it comes, not at the run's end", async () => {
    const paused = pausingModel(['Hel', 'lo'], [' there']);
    const h = makeEngine({ agents: {} }, { model: () => paused.model });
    const { done } = await h.engine.send({ prompt: 'go' });
    // The first burst is out while the model is still waiting.
    await expect.poll(() => texts(h.events), { interval: 0 }).toEqual(['Hello']);
    paused.release();
    expect(await done).toMatchObject({ status: 'ok', output: 'Hello there' });
    expect(texts(h.events)).toEqual(['Hello', ' there']);
  });

  it("keeps a run's text before the events that follow it (a tool call, the run's end)", async () => {
    const h = makeEngine(
      {
        agents: {
          supervisor: [
            { text: 'Let me ask a for it.', chunks: 5, toolCalls: [{ tool: 'delegate_task', input: { task: 't', agents: ['a'] } }] },
            { text: 'a said so.', chunks: 3 },
          ],
          a: [{ text: 'from a', chunks: 2 }],
        },
      },
      { agents: { a: agent('A.') } },
    );
    const { threadId, done } = await h.engine.send({ prompt: 'go' });
    expect(await done).toMatchObject({ status: 'ok' });
    await h.engine.whenQuiet(threadId);
    const supervisorRun = h.events.find((e) => e.kind === 'run.started' && e.depth === 0)!.runId;
    const kinds = h.events
      .filter((e) => e.runId === supervisorRun && e.kind !== 'run.usage')
      .map((e) => (e.kind === 'text.delta' ? `text:${e.text}` : e.kind));
    expect(kinds).toEqual([
      'run.started',
      'run.config',
      'text:Let me ask a for it.',
      'tool.started',
      'tool.finished',
      'text:\n\na said so.',
      'run.finished',
    ]);
    const seqs = (await h.store.get(threadId))!.events.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  });
});
