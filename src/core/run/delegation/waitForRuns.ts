import type { RunHandle } from './runHandle';

/**
 * Resolves when every run has finished, when `timeoutMs` has passed, or when the signal aborts,
 * whichever comes first. Whichever it is, the timer and the abort listener go: a model that polls
 * with background_runs' wait on one signal leaves nothing behind per poll.
 */
export function waitForRuns(runs: readonly RunHandle[], timeoutMs: number | undefined, signal: AbortSignal): Promise<void> {
  if (signal.aborted || runs.every((r) => r.result)) return Promise.resolve();
  return new Promise<void>((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const settle = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', settle);
      resolve();
    };
    if (timeoutMs !== undefined) timer = setTimeout(settle, timeoutMs);
    signal.addEventListener('abort', settle, { once: true });
    // done never rejects; settling twice does nothing.
    void Promise.all(runs.map((r) => r.done)).then(settle);
  });
}
