import { tracingChannel } from 'node:diagnostics_channel';
import { streamText } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { agent, makeEngine } from '../engineHarness';
import { programmedModel } from '../programmedModel';

// The ai SDK publishes every call's prompt, tools, inputs and outputs on the process-wide
// diagnostics channel `ai:telemetry` unless a call opts out. In VS Code every extension shares one
// extension host: any of them could subscribe and read what our agents send and receive. We use no
// SDK telemetry, so every call opts out (and skips the SDK's per-call work of redacting our tools
// for it).

const CHANNEL = 'ai:telemetry';

interface Seen {
  messages: string[];
  stop(): void;
}

function listen(): Seen {
  const channel = tracingChannel<object, object>(CHANNEL);
  const messages: string[] = [];
  const note = (message: unknown) =>
    messages.push(JSON.stringify(message, (_k, v: unknown) => (typeof v === 'function' ? undefined : v)) ?? '');
  const subscribers = { start: note, end: note, asyncStart: note, asyncEnd: note, error: note };
  channel.subscribe(subscribers);
  return { messages, stop: () => channel.unsubscribe(subscribers) };
}

let seen: Seen | undefined;
afterEach(() => seen?.stop());

describe('model calls publish nothing on the SDK telemetry channel', () => {
  it('the channel does carry a plain SDK call (what the listener would see)', async () => {
    seen = listen();
    const model = programmedModel(() => ({ text: 'plain answer' }));
    const run = streamText({ model, prompt: 'a plain prompt with hunter2' });
    await run.consumeStream();
    expect(seen.messages.some((m) => m.includes('hunter2'))).toBe(true);
  });

  it('a delegation (supervisor and subagents, tools called) publishes no message at all', async () => {
    const h = makeEngine(
      {
        agents: {
          supervisor: [
            { toolCalls: [{ tool: 'delegate_task', input: { task: 'read the note hunter2', agents: ['a'] } }] },
            { text: 'done' },
          ],
          a: [{ toolCalls: [{ tool: 'list_dir', input: { path: '.' } }] }, { text: 'the note says hunter2' }],
        },
      },
      { agents: { a: agent('A.') } },
    );
    seen = listen();
    const { threadId, done } = await h.engine.send({ prompt: 'delegate: hunter2' });
    expect(await done).toMatchObject({ status: 'ok', output: 'done' });
    await h.engine.whenQuiet(threadId);
    expect(h.events.some((e) => e.kind === 'tool.finished' && e.tool === 'list_dir')).toBe(true);
    expect(seen.messages.filter((m) => m.includes('hunter2')).length, 'messages with the prompt').toBe(0);
    expect(seen.messages.length, 'messages on ai:telemetry').toBe(0);
  });
});
