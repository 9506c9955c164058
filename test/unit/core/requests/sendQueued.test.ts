import { describe, expect, it } from 'vitest';
import { PromptQueue } from '../../../../src/core/engine/requests/promptQueue';
import { sendQueued } from '../../../../src/core/engine/requests/sendQueued';
import { gatedModel } from '../../fakes/gatedModel';
import { SCRIPT_PATH, makeEngine } from '../engineHarness';

// What the chat participant and the language-model tool send through: the panel's queue, over a real engine.

describe('sendQueued', () => {
  it('resolves when the turn starts, after the work already on the thread (one run per thread)', async () => {
    const gated = gatedModel();
    const h = makeEngine({ agents: {} }, { model: () => gated.model });
    const queue = new PromptQueue(h.engine);
    const first = await sendQueued(queue, { threadId: 't_sq1', prompt: 'first' });
    let second: Awaited<ReturnType<typeof sendQueued>> | undefined;
    const queued: string[] = [];
    const sending = sendQueued(queue, { threadId: 't_sq1', prompt: 'second' }, (item) => queued.push(item.id)).then((r) => (second = r));
    await gated.reached(1);
    expect(queued).toHaveLength(1);
    expect(queue.queued('t_sq1').map((q) => q.prompt)).toEqual(['second']);
    expect(second).toBeUndefined();
    gated.calls[0]!.answer('one');
    await first.done;
    await gated.reached(2);
    gated.calls[1]!.answer('two');
    await sending;
    expect((await second!.done).output).toBe('two');
    expect(second!.threadId).toBe('t_sq1');
  });

  it("rejects with the engine's reason when the message is refused, and when it is taken out of the queue", async () => {
    const gated = gatedModel();
    const h = makeEngine({ agents: {} }, { model: () => gated.model });
    const queue = new PromptQueue(h.engine);
    await expect(sendQueued(queue, { threadId: 't_sq2', prompt: 'x', agent: 'nobody' })).rejects.toThrow(/no enabled agent "nobody"/);
    await sendQueued(queue, { threadId: 't_sq2', prompt: 'busy' });
    const waiting = sendQueued(queue, { threadId: 't_sq2', prompt: 'later' }, (item) => queue.remove(item.threadId, item.id));
    await expect(waiting).rejects.toThrow(/taken out of the queue/);
    await gated.reached(1);
    gated.calls[0]!.answer('done');
  });

  it("a message's model replaces subagents.model for that request only", async () => {
    const h = makeEngine(
      { agents: { supervisor: [{ text: 'from the picked model' }] } },
      { settings: { model: 'scripted:/no/such/script.json' } },
    );
    const queue = new PromptQueue(h.engine);
    const picked = await sendQueued(queue, { threadId: 't_sq3', prompt: 'hi', model: `scripted:${SCRIPT_PATH}` });
    expect((await picked.done).output).toBe('from the picked model');
    expect(h.events.find((e) => e.kind === 'run.started')).toMatchObject({ model: `scripted:${SCRIPT_PATH}` });
    await h.engine.whenQuiet('t_sq3');
    const configured = await sendQueued(queue, { threadId: 't_sq3', prompt: 'again' });
    expect((await configured.done).status).toBe('error');
  });
});
