import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/core/ports';
import { PromptQueue } from '../../../src/core/engine/requests/promptQueue';
import { PanelController } from '../../../src/host/panel/panelController';
import type { HostToWebview } from '../../../src/shared/protocol';
import { agent, makeEngine } from '../core/engineHarness';
import { programmedModel, type ProgramStep } from '../core/programmedModel';

async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((r) => setImmediate(r));
}

/** A panel over an engine whose supervisor delegates to `worker`; the worker writes, then waits to be told or stopped. */
function setup() {
  let release: (step: ProgramStep) => void = () => {};
  let waiting = false;
  const seen: string[][] = [];
  const models = {
    supervisor: programmedModel(({ call, lastToolOutput }) =>
      call === 0
        ? { toolCalls: [{ tool: 'delegate_task', input: { task: 'dig', agents: ['worker'] } }] }
        : { text: `worker: ${(lastToolOutput() as { status: string }[])[0]!.status}` },
    ),
    worker: programmedModel(({ call, userTexts }) => {
      seen.push(userTexts());
      if (call > 0) return { text: 'as you asked' };
      waiting = true;
      return new Promise<ProgramStep>((resolve) => (release = resolve));
    }),
  };
  const h = makeEngine({ agents: {} }, { agents: { worker: agent('digs') }, model: (c) => models[c.agent as keyof typeof models] });
  const posted: HostToWebview[] = [];
  const controller = new PanelController({
    engine: h.engine,
    store: h.store,
    queue: new PromptQueue(h.engine),
    memory: { get: () => undefined, set: async () => {} },
    config: () => ({ model: 'scripted:x', agents: [], problems: [], trusted: true }),
    logger: silentLogger,
    batchIntervalMs: 5,
  });
  controller.attach((m) => posted.push(m));
  const top = () => h.runs().find((r) => r.depth === 0);
  const worker = () => h.runs().find((r) => r.agent === 'worker');
  return { h, controller, posted, seen, top, worker, waiting: () => waiting, release: (step: ProgramStep) => release(step) };
}

describe("the panel's controls on one run", () => {
  it('cancelRun stops that child only: the supervisor goes on and answers with what came back', async () => {
    const s = setup();
    await s.controller.receive({ type: 'send', text: 'go' });
    await until(s.waiting);
    await s.controller.receive({ type: 'cancelRun', runId: s.worker()!.runId });
    await until(() => s.top()?.state === 'ok');
    expect(s.worker()!.state).toBe('cancelled');
    expect(s.top()!.output).toBe('worker: cancelled');
  });

  it('steerRun reaches the running child; to a finished one it says so in a notice', async () => {
    const s = setup();
    await s.controller.receive({ type: 'send', text: 'go' });
    await until(s.waiting);
    const runId = s.worker()!.runId;
    await s.controller.receive({ type: 'steerRun', runId, text: 'Only the src folder.' });
    s.release({ text: 'first pass' });
    await until(() => s.top()?.state === 'ok');
    expect(s.seen[1]!.at(-1)).toMatch(/^\[A message from the user, who is watching you work\.[^\n]*\]\nOnly the src folder\.$/);
    expect(s.h.events.filter((e) => e.kind === 'run.message')).toEqual([
      expect.objectContaining({ runId, from: 'user', text: 'Only the src folder.' }),
    ]);

    await s.controller.receive({ type: 'steerRun', runId, text: 'And the tests?' });
    expect(s.posted.at(-1)).toMatchObject({
      type: 'notice',
      level: 'error',
      message: expect.stringMatching(/That run is not working any more/),
    });
  });

  it('refuses run controls when no conversation is shown, and for a run of another conversation', async () => {
    const s = setup();
    await s.controller.receive({ type: 'cancelRun', runId: 'r_1' });
    expect(s.posted.at(-1)).toMatchObject({ type: 'notice', message: 'No conversation is open, so there is no run to stop or tell.' });
    // Another conversation's run, working in the same engine.
    const other = await s.h.engine.send({ prompt: 'elsewhere' });
    await until(s.waiting);
    await s.controller.receive({ type: 'send', text: 'here' });
    await s.controller.receive({ type: 'cancelRun', runId: s.worker()!.runId });
    expect(s.posted.at(-1)).toMatchObject({ type: 'notice', message: expect.stringMatching(/belongs to another conversation/) });
    expect(s.worker()!.state).toBe('running');
    s.h.engine.cancel(other.threadId);
    await other.done;
  });
});
