import { childProcess } from './childProcess';

/** A process to start: in a process group of its own (POSIX), stdout and stderr piped. */
export interface SpawnSpec {
  file: string;
  args: readonly string[];
  env: Record<string, string>;
  cwd: string;
  /** Written to its stdin, which is then closed; without it stdin is /dev/null. */
  input?: Buffer;
  /** Windows: pass the arguments to cmd.exe as they are. */
  verbatim?: boolean;
}

/** What a started process reports, in the order node's ChildProcess reports it. */
export interface ProcessEvents {
  stdout(chunk: Buffer): void;
  stderr(chunk: Buffer): void;
  /** It could not start (or could not be reached): nothing else follows but perhaps `close`. */
  error(error: Error): void;
  exit(code: number | null): void;
  /** Ended and its pipes closed: the last event. */
  close(): void;
}

export interface ProcessControl {
  /** Signals its whole process group (a no-op once it is gone). */
  signalGroup(signal: NodeJS.Signals): void;
  /** Closes its output pipes, which a process that escaped the group may hold open. */
  closePipes(): void;
}

/** How a process is started: directly (spawnDirectly) or by the small launcher process (processLauncher/). */
export type Spawner = (spec: SpawnSpec, events: ProcessEvents) => ProcessControl;

/** A child process of this one: node forks this whole process to start it (on Linux its cost grows with this process's memory). */
export const spawnDirectly: Spawner = (spec, events) => {
  const child = childProcess().spawn(spec.file, spec.args, {
    cwd: spec.cwd,
    env: spec.env,
    stdio: [spec.input ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    // POSIX: the process leads a new process group, which signalGroup signals.
    detached: process.platform !== 'win32',
    windowsHide: true,
    windowsVerbatimArguments: spec.verbatim ?? false,
  });
  child.stdout?.on('data', (chunk: Buffer) => events.stdout(chunk));
  child.stderr?.on('data', (chunk: Buffer) => events.stderr(chunk));
  child.on('error', (error) => events.error(error));
  child.on('exit', (code) => events.exit(code));
  child.on('close', () => events.close());
  if (spec.input) {
    child.stdin?.on('error', () => {}); // it may exit before it reads all of its input
    child.stdin?.end(spec.input);
  }
  return {
    signalGroup: (signal) => {
      if (child.pid !== undefined) signalProcessGroup(child.pid, signal);
    },
    closePipes: () => {
      child.stdout?.destroy();
      child.stderr?.destroy();
    },
  };
};

/** Signals the process group that `pid` leads (on Windows its process tree); a group already gone is fine. */
export function signalProcessGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    if (process.platform === 'win32') {
      childProcess().spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
    } else {
      process.kill(-pid, signal);
    }
  } catch {
    // ESRCH: the group is already gone.
  }
}
