import type * as WorkerThreadsModule from 'node:worker_threads';

let loaded: typeof WorkerThreadsModule | undefined;

/**
 * node:worker_threads, required by the first regex search that needs a worker (the walker's
 * fallback of search_text) instead of when engine.js loads, which the panel's first request waits for.
 */
export function workerThreads(): typeof WorkerThreadsModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (loaded ??= require('node:worker_threads') as typeof WorkerThreadsModule);
}
