import { describe, expect, it } from 'vitest';
import { EngineRequestError } from '../../../../src/core/engine/engine';
import { PromptQueue, type QueueChange } from '../../../../src/core/engine/requests/promptQueue';
import { gatedModel } from '../../fakes/gatedModel';
import { makeEngine } from '../engineHarness';

// The one rule for sending while a thread works, over a real Engine and a model the test holds at
// work: queued messages become turns in order, each once the thread is quiet, never two at once.

function setup() {
  const gated = gatedModel();
  const h = makeEngine({ agents: {} }, { model: () => gated.model });
  const queue = new PromptQueue(h.engine);
  const changes: QueueChange[] = [];
  const waiters: (() => void)[] = [];
  queue.onChange((c) => {
    changes.push(c);
    for (const w of waiters.splice(0)) w();
  });
  const when = (pred: (c: QueueChange) => boolean): Promise<QueueChange> => {
    const hit = changes.find(pred);
    return hit ? Promise.resolve(hit) : new Promise((resolve) => waiters.push(() => resolve(when(pred))));
  };
  /** Top-level runs of the thread, as [task, status] in start order. */
  const turns = (threadId: string) =>
    h
      .runs()
      .filter((r) => r.threadId === threadId && r.depth === 0)
      .map((r) => [r.task, r.state]);
  return { h, gated, queue, changes, when, turns };
}

describe('PromptQueue', () => {
  it('sends at once to a quiet thread, in the same call', async () => {
    const { queue, when, gated, h } = setup();
    queue.submit({ threadId: 't_q1', prompt: 'hello' });
    // Before any await: the queue already counts the thread as busy, whatever the engine says yet.
    expect(queue.isBusy('t_q1')).toBe(true);
    expect(queue.queued('t_q1')).toEqual([]);
    await gated.reached(1);
    gated.calls[0]!.answer('hi');
    await when((c) => c.kind === 'idle');
    expect(h.runs().map((r) => [r.task, r.state, r.text])).toEqual([['hello', 'ok', 'hi']]);
    expect(queue.isBusy('t_q1')).toBe(false);
  });

  it('queues what is sent while the thread works and sends each, in order, once the thread is quiet', async () => {
    const { queue, when, gated, h, changes, turns } = setup();
    // A double Enter: two sends in the same tick on a quiet thread start one run, not two.
    queue.submit({ threadId: 't_q2', prompt: 'one' });
    queue.submit({ threadId: 't_q2', prompt: 'two' });
    queue.submit({ threadId: 't_q2', prompt: 'three' });
    expect(queue.queued('t_q2').map((i) => i.prompt)).toEqual(['two', 'three']);
    await gated.reached(1);
    expect(gated.calls.map((c) => c.prompt)).toEqual(['one']);

    // Each queued message leaves the queue only when the thread is quiet.
    const quietWhenSending: boolean[] = [];
    queue.onChange((c) => {
      if (c.kind === 'sending') quietWhenSending.push(!h.engine.isBusy(c.threadId));
    });
    gated.calls[0]!.answer('first');
    await gated.reached(2);
    expect(gated.calls[1]!.prompt).toBe('two');
    expect(turns('t_q2')).toEqual([
      ['one', 'ok'],
      ['two', 'running'],
    ]);
    gated.calls[1]!.answer('second');
    await gated.reached(3);
    gated.calls[2]!.answer('third');
    await when((c) => c.kind === 'idle');
    expect(turns('t_q2')).toEqual([
      ['one', 'ok'],
      ['two', 'ok'],
      ['three', 'ok'],
    ]);
    expect(quietWhenSending).toEqual([true, true]);
    // The queue never leaned on the engine refusing a second send.
    expect(changes.filter((c) => c.kind === 'refused')).toEqual([]);
  });

  it('never sends a message that was removed', async () => {
    const { queue, when, gated, turns } = setup();
    queue.submit({ threadId: 't_q3', prompt: 'work' });
    const gone = queue.submit({ threadId: 't_q3', prompt: 'never mind' });
    const kept = queue.submit({ threadId: 't_q3', prompt: 'then this' });
    expect(queue.remove('t_q3', gone.id)).toBe(true);
    expect(queue.remove('t_q3', gone.id)).toBe(false);
    expect(queue.queued('t_q3')).toEqual([kept]);
    await gated.reached(1);
    gated.calls[0]!.answer('done');
    await gated.reached(2);
    gated.calls[1]!.answer('ok');
    await when((c) => c.kind === 'idle');
    expect(turns('t_q3')).toEqual([
      ['work', 'ok'],
      ['then this', 'ok'],
    ]);
  });

  it('Stop then Send: the new message starts as soon as the stopped run has ended', async () => {
    const { queue, when, gated, h, turns } = setup();
    queue.submit({ threadId: 't_q4', prompt: 'long job' });
    await gated.reached(1);
    h.engine.cancel('t_q4');
    queue.submit({ threadId: 't_q4', prompt: 'do this instead' });
    // The stopped run's model call is aborted; the queued message needs nothing else to start.
    await gated.reached(2);
    expect(gated.calls[1]!.prompt).toBe('do this instead');
    const finished = h.events.findIndex((e) => e.kind === 'run.finished' && e.threadId === 't_q4');
    const restarted = h.events.findIndex((e, i) => i > finished && e.kind === 'run.started' && e.threadId === 't_q4');
    expect(finished).toBeGreaterThanOrEqual(0);
    expect(restarted).toBeGreaterThan(finished);
    gated.calls[1]!.answer('instead');
    await when((c) => c.kind === 'idle');
    expect(turns('t_q4')).toEqual([
      ['long job', 'cancelled'],
      ['do this instead', 'ok'],
    ]);
  });

  it('reports a refused message and goes on with the next one', async () => {
    const { queue, when, gated, turns } = setup();
    queue.submit({ threadId: 't_q5', prompt: 'ask nobody', agent: 'nobody' });
    queue.submit({ threadId: 't_q5', prompt: 'ask the supervisor' });
    const refused = await when((c) => c.kind === 'refused');
    expect(refused.kind === 'refused' && refused.error).toBeInstanceOf(EngineRequestError);
    expect(refused.kind === 'refused' && refused.item.prompt).toBe('ask nobody');
    await gated.reached(1);
    gated.calls[0]!.answer('here');
    await when((c) => c.kind === 'idle');
    expect(turns('t_q5')).toEqual([['ask the supervisor', 'ok']]);
  });

  it('keeps threads apart and bounds how many messages wait', async () => {
    const { queue, h, when, gated } = setup();
    queue.submit({ threadId: 't_q6', prompt: 'busy' });
    queue.submit({ threadId: 't_q7', prompt: 'other thread' });
    expect(queue.queued('t_q7')).toEqual([]);
    for (let i = 0; i < 20; i++) queue.submit({ threadId: 't_q6', prompt: `m${i}` });
    expect(() => queue.submit({ threadId: 't_q6', prompt: 'one too many' })).toThrow(/20 messages are already waiting/);
    expect(queue.queued('t_q6')).toHaveLength(20);
    queue.clear();
    expect(queue.queued('t_q6')).toEqual([]);
    // Both runs at work, then stopped, so the test leaves nothing running.
    await gated.reached(2);
    h.engine.cancelAll();
    await when((c) => c.kind === 'idle' && c.threadId === 't_q6');
  });
});
