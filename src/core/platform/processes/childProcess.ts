import type * as ChildProcessModule from 'node:child_process';

let loaded: typeof ChildProcessModule | undefined;

/**
 * node:child_process, required by the first git or command run instead of when engine.js loads: it
 * brings net, dgram and the stream modules with it, a millisecond or more of the load the panel's
 * first request waits for, and the panel opens without running anything.
 */
export function childProcess(): typeof ChildProcessModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (loaded ??= require('node:child_process') as typeof ChildProcessModule);
}
