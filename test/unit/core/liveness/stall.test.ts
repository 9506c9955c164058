import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import type { RunEvent, RunEventOf } from '../../../../src/shared/events';
import { ManualSchedule } from '../../fakes/manualSchedule';
import { agent, makeEngine } from '../engineHarness';
import { programmedModel, type ProgramStep } from '../programmedModel';

const NEVER = new Promise<ProgramStep>(() => {});
const SETTINGS = { stallWarningMs: 120_000, modelIdleTimeoutMs: 300_000 };
const warnings = (events: RunEvent[], code: string) =>
  events.filter((e): e is RunEventOf<'warning'> => e.kind === 'warning' && e.code === code);

async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((r) => setImmediate(r));
}

/** A supervisor that delegates once to `worker`, whose model the test supplies. */
function withWorker(worker: MockLanguageModelV4 | ReturnType<typeof programmedModel>, clock: ManualSchedule) {
  const supervisor = programmedModel(({ call }) =>
    call === 0 ? { toolCalls: [{ tool: 'delegate_task', input: { task: 'dig', agents: ['worker'] } }] } : { text: 'ok' },
  );
  const h = makeEngine(
    { agents: {} },
    {
      agents: { worker: agent('digs') },
      settings: SETTINGS,
      schedule: clock.schedule,
      clock: clock.clock,
      model: (c) => (c.agent === 'worker' ? worker : supervisor),
    },
  );
  return { ...h, worker: () => h.runs().find((r) => r.agent === 'worker') };
}

describe('a child that stalls is seen', () => {
  it('warns once (code stall) and marks the node after stallWarningMs of silence; after modelIdleTimeoutMs the call is aborted and tried once more', async () => {
    const clock = new ManualSchedule();
    let calls = 0;
    const h = withWorker(
      programmedModel(({ call }) => {
        calls = call + 1;
        return call === 0 ? NEVER : { text: 'back after a retry' };
      }),
      clock,
    );
    const { done } = await h.engine.send({ prompt: 'go' });
    await until(() => calls === 1);

    clock.advance(119_999);
    expect(warnings(h.events, 'stall')).toEqual([]);
    clock.advance(1);
    const [stall] = warnings(h.events, 'stall');
    expect(stall).toMatchObject({
      runId: h.worker()!.runId,
      message: expect.stringMatching(/^Stalled\? The model has sent nothing for 120 s while its call is open/),
    });
    expect(h.tree().runs[h.worker()!.runId]!.stalled).toBe(true);
    clock.advance(100_000);
    expect(warnings(h.events, 'stall')).toHaveLength(1);

    clock.advance(80_000);
    const finished = await done;
    expect(finished.status).toBe('ok');
    expect(calls).toBe(2);
    const worker = h.worker()!;
    expect(h.events.filter((e) => e.kind === 'run.retrying' && e.runId === worker.runId)).toEqual([
      expect.objectContaining({ attempt: 1, maxRetries: 1, error: 'the model sent nothing for 300 s' }),
    ]);
    expect(worker).toMatchObject({ state: 'ok', output: 'back after a retry' });
    expect(worker.stalled).toBeUndefined();
    // Nothing is left to fire: every watch and timer of the run was let go.
    expect(clock.pending).toBe(0);
  });

  it('a model silent twice ends the run with an error that says so', async () => {
    const clock = new ManualSchedule();
    let calls = 0;
    const h = withWorker(
      programmedModel(() => {
        calls++;
        return NEVER;
      }),
      clock,
    );
    const { done } = await h.engine.send({ prompt: 'go' });
    await until(() => calls === 1);
    clock.advance(300_000);
    await until(() => calls === 2);
    clock.advance(300_000);
    await done;
    expect(h.worker()).toMatchObject({
      state: 'error',
      error: expect.stringMatching(/The model sent nothing for 300 s, twice \(subagents\.modelIdleTimeoutMs\)/),
    });
  });

  it('a stream that goes silent midway is aborted, not retried (its text was already shown)', async () => {
    const clock = new ManualSchedule();
    let opened = false;
    const model = new MockLanguageModelV4({
      doStream: async () => ({
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          start(controller) {
            opened = true;
            controller.enqueue({ type: 'stream-start', warnings: [] });
            controller.enqueue({ type: 'text-start', id: 't' });
            controller.enqueue({ type: 'text-delta', id: 't', delta: 'half an answer' });
            // …and nothing more, ever.
          },
        }),
      }),
    });
    const h = withWorker(model, clock);
    const { done } = await h.engine.send({ prompt: 'go' });
    await until(() => opened && h.events.some((e) => e.kind === 'text.delta' && e.runId === h.worker()?.runId));
    clock.advance(300_000);
    await done;
    expect(h.worker()).toMatchObject({
      state: 'error',
      output: 'half an answer',
      error: expect.stringMatching(/stopped sending for 300 s in the middle of its answer/),
    });
    expect(h.events.filter((e) => e.kind === 'run.retrying')).toEqual([]);
  });
});
