import { describe, expect, it } from 'vitest';
import { PanelController } from '../../../src/host/panelController';
import type { HostToWebview, PanelConfig } from '../../../src/shared/protocol';
import { silentLogger, type Logger } from '../../../src/core/ports';
import { EMPTY_TREE, foldRunEvents, walkRuns } from '../../../src/shared/runTree';
import { agent, makeEngine } from '../core/engineHarness';

const script = {
  agents: {
    supervisor: [{ toolCalls: [{ tool: 'delegate_task', input: { task: 't', agents: ['a', 'b'] } }] }, { text: 'final answer' }],
    a: [{ text: 'from a' }],
    b: [{ text: 'from b' }],
  },
};
const config: PanelConfig = { model: 'scripted:x', agents: [], problems: [], trusted: true };

function setup(remembered?: string, logger: Logger = silentLogger) {
  const h = makeEngine(script, { agents: { a: agent('A'), b: agent('B') } });
  let stored = remembered;
  const posted: HostToWebview[] = [];
  const controller = new PanelController({
    engine: h.engine,
    store: h.store,
    memory: { get: () => stored, set: async (id) => void (stored = id) },
    config: () => config,
    logger,
    batchIntervalMs: 5,
  });
  const waiters: (() => void)[] = [];
  controller.attach((m) => {
    posted.push(m);
    for (const w of waiters.splice(0)) w();
  });
  // Resolves on the first posted message that fits, checked as each message arrives.
  const waitFor = (pred: (m: HostToWebview) => boolean): Promise<void> =>
    posted.some(pred) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(() => resolve(waitFor(pred))));
  return { h, controller, posted, waitFor, stored: () => stored };
}

describe('PanelController', () => {
  it('runs a prompt and streams the whole family of the thread in batches, then reports not busy', async () => {
    const { h, controller, posted, waitFor, stored } = setup();
    await controller.receive({ type: 'ready' });
    expect(posted[0]).toMatchObject({ type: 'state', threadId: null, events: [] });
    await controller.receive({ type: 'send', text: 'do it' });
    await waitFor((m) => m.type === 'busy' && !m.busy);
    const threadId = stored()!;
    expect(threadId).toBeTruthy();
    const batched = posted.flatMap((m) => (m.type === 'events' ? m.events : []));
    const tree = foldRunEvents(EMPTY_TREE, batched);
    const runs = walkRuns(tree);
    expect(runs.map((r) => [r.agent, r.state])).toEqual([
      ['supervisor', 'ok'],
      ['a', 'ok'],
      ['b', 'ok'],
    ]);
    expect(runs[0]!.text).toBe('final answer');
    // Batches, not one message per event.
    expect(posted.filter((m) => m.type === 'events').length).toBeLessThan(h.events.length);
    expect(posted.some((m) => m.type === 'threads' && m.threads.some((t) => t.id === threadId))).toBe(true);
  });

  it('shows the remembered thread again after a reload, tree included', async () => {
    const first = setup();
    await first.controller.receive({ type: 'send', text: 'do it' });
    await first.waitFor((m) => m.type === 'busy' && !m.busy);
    const threadId = first.stored()!;
    // A new controller over the same store, as after a window reload.
    const posted: HostToWebview[] = [];
    const again = new PanelController({
      engine: first.h.engine,
      store: first.h.store,
      memory: { get: () => threadId, set: async () => {} },
      config: () => config,
      logger: silentLogger,
    });
    again.attach((m) => posted.push(m));
    await again.receive({ type: 'ready' });
    const state = posted[0];
    expect(state?.type).toBe('state');
    if (state?.type !== 'state') return;
    expect(state.threadId).toBe(threadId);
    expect(walkRuns(foldRunEvents(EMPTY_TREE, state.events)).map((r) => r.agent)).toEqual(['supervisor', 'a', 'b']);
  });

  it('drops forged or malformed messages with a log line and keeps working', async () => {
    const warnings: string[] = [];
    const { controller, posted } = setup(undefined, { ...silentLogger, warn: (m) => warnings.push(m) });
    for (const bad of [null, 'ready', { type: 'exec', command: 'rm -rf /' }, { type: 'send', text: '' }, { type: 'openThread', threadId: 7 }]) {
      await controller.receive(bad);
    }
    expect(warnings).toHaveLength(5);
    expect(warnings[2]).toMatch(/Dropped an invalid message/);
    expect(posted).toHaveLength(0);
    await controller.receive({ type: 'ready' });
    expect(posted).toHaveLength(1);
  });

  it('answers an unknown thread with a notice, not a crash', async () => {
    const { controller, posted } = setup();
    await controller.receive({ type: 'openThread', threadId: 'does-not-exist' });
    expect(posted).toEqual([{ type: 'notice', level: 'error', message: expect.stringMatching(/no conversation does-not-exist/) }]);
  });

  it('forgets a remembered thread that is gone and starts empty', async () => {
    const { controller, posted, stored } = setup('t_gone');
    await controller.receive({ type: 'ready' });
    expect(posted[0]).toMatchObject({ type: 'state', threadId: null });
    expect(stored()).toBeUndefined();
  });
});
