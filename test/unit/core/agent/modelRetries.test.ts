import { describe, expect, it } from 'vitest';
import type { RunEventOf } from '../../../../src/shared/events';
import { EMPTY_TREE, foldRunEvents } from '../../../../src/shared/runTree';
import { makeEngine } from '../engineHarness';

describe('a run whose model call fails for a passing reason', () => {
  it('reports each retry as a run.retrying event, then finishes with the answer', async () => {
    const h = makeEngine({
      agents: {
        supervisor: [
          { error: { status: 429, message: 'rate limited', retryAfterMs: 20 } },
          { error: { status: 503, message: 'overloaded', retryAfterMs: 0 } },
          { text: 'finally' },
        ],
      },
    });
    const finished = await (await h.engine.send({ prompt: 'hello' })).done;
    expect(finished).toMatchObject({ status: 'ok', output: 'finally' });
    const retries = h.events.filter((e): e is RunEventOf<'run.retrying'> => e.kind === 'run.retrying');
    expect(retries.map(({ attempt, maxRetries, delayMs, error }) => ({ attempt, maxRetries, delayMs, error }))).toEqual([
      { attempt: 1, maxRetries: 4, delayMs: 20, error: '429: rate limited' },
      { attempt: 2, maxRetries: 4, delayMs: 0, error: '503: overloaded' },
    ]);

    // The tree shows the retry while it waits, and forgets it once the model answers.
    const upToFirst = h.events.slice(0, h.events.indexOf(retries[0]!) + 1);
    const waiting = foldRunEvents(EMPTY_TREE, upToFirst).runs[finished.runId]!;
    expect(waiting.retrying).toEqual({ attempt: 1, maxRetries: 4, error: '429: rate limited', delayMs: 20, retryAt: retries[0]!.ts + 20 });
    expect(h.tree().runs[finished.runId]!.retrying).toBeUndefined();
  });

  it('does not retry a permanent error, and the run says what to fix', async () => {
    const h = makeEngine({ agents: { supervisor: [{ error: { status: 401, message: 'invalid key' } }, { text: 'never' }] } });
    const finished = await (await h.engine.send({ prompt: 'hello' })).done;
    expect(finished.status).toBe('error');
    expect(finished.error).toMatch(/refused the API key \(401: invalid key\)/);
    expect(h.events.some((e) => e.kind === 'run.retrying')).toBe(false);
  });
});
