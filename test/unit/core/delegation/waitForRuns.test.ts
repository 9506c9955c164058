import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RunHandle } from '../../../../src/core/run/delegation/runHandle';
import { failedResult } from '../../../../src/core/run/delegation/runResult';
import { waitForRuns } from '../../../../src/core/run/delegation/waitForRuns';

// background_runs' wait, on its own: every way it ends takes its timer and its abort listener along.

const child = () =>
  new RunHandle({ runId: 'r_child', threadId: 'c_child', rootThreadId: 't_root', agent: 'a', modelSpec: 'm', parent: null });
const listeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('waitForRuns', () => {
  it('leaves nothing behind after 20 polls that time out on one signal', async () => {
    const run = child();
    const controller = new AbortController();
    const baseline = listeners(controller.signal);
    for (let i = 0; i < 20; i++) {
      const waiting = waitForRuns([run], 5, controller.signal);
      expect(listeners(controller.signal)).toBe(baseline + 1);
      await vi.advanceTimersByTimeAsync(5);
      await waiting;
      expect(listeners(controller.signal)).toBe(baseline);
    }
    expect(vi.getTimerCount()).toBe(0);
    expect(run.result).toBeUndefined();
  });

  it('clears its timer when the signal aborts, and its listener when the runs finish', async () => {
    const controller = new AbortController();
    const aborted = waitForRuns([child()], 60_000, controller.signal);
    controller.abort();
    await aborted;
    expect(vi.getTimerCount()).toBe(0);

    const other = new AbortController();
    const run = child();
    const finished = waitForRuns([run], 60_000, other.signal);
    run.finish(failedResult('a', 'c_child', 'done for the test'));
    await finished;
    expect(vi.getTimerCount()).toBe(0);
    expect(listeners(other.signal)).toBe(0);
  });
});
