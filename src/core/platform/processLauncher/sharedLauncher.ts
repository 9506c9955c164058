import { spawnDirectly, type Spawner } from '../processes/spawner';
import { ProcessLauncher } from './processLauncher';

/**
 * The process's one launcher, for the product's own helpers (ripgrep): made on their first start,
 * never at activation. Only on Linux, where node forks the calling process to start a child
 * (macOS uses posix_spawn, Windows CreateProcess: neither copies the caller).
 */
let shared: ProcessLauncher | undefined;
let log: (message: string) => void = () => {};
let enabled = process.platform === 'linux';

/** Where the launcher says it could not start or ended (the host's log; once for each time). */
export function setProcessLauncherLog(sink: (message: string) => void): void {
  log = sink;
}

/** Off: every process starts directly, the launcher left as it is (`npm run bench` compares both ways, turn about). */
export function setProcessLauncherEnabled(on: boolean): void {
  enabled = on && process.platform === 'linux';
}

/** The shared launcher, when one is made (the tests and the bench look at it). */
export function sharedProcessLauncher(): ProcessLauncher | undefined {
  return shared;
}

/** Ends the launcher and what it runs: the engine or the extension is disposed. The next start makes a new one. */
export function shutdownProcessLauncher(): void {
  shared?.shutdown();
  shared = undefined;
}

/** Starts a helper by the shared launcher (directly where there is none). */
export const launcherSpawn: Spawner = (spec, events) => {
  if (!enabled) return spawnDirectly(spec, events);
  shared ??= new ProcessLauncher({ log: (message) => log(message) });
  return shared.spawn(spec, events);
};
