import type { ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import type { z } from 'zod';
import { childProcess } from '../processes/childProcess';
import { signalProcessGroup, spawnDirectly, type ProcessControl, type ProcessEvents, type SpawnSpec } from '../processes/spawner';
import {
  errorPayload,
  exitPayload,
  FRAME,
  FrameReader,
  framePayload,
  spawnedPayload,
  type Frame,
  type LauncherRequest,
} from './launcherFrames';
import { launcherSource } from './launcherMain';

/** Timers, injected so that a test can run the idle shutdown without waiting for it. */
export interface LauncherTimers {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export interface ProcessLauncherOptions {
  /** Idle this long (nothing running), the launcher process ends; the next start makes a new one. */
  idleMs?: number;
  timers?: LauncherTimers;
  /** Told when the launcher could not start or ended unexpectedly (the processes are then started directly). */
  log?: (message: string) => void;
  /** The binary that runs the launcher's program: this one's own (node, or the editor's, run as node). */
  nodePath?: string;
}

const IDLE_MS = 60_000;
/** Lost this many times, the launcher is not started again: something here kills it (a crash is no reason to keep paying for it). */
const MAX_LOSSES = 3;
const REAL_TIMERS: LauncherTimers = {
  set: (callback, ms) => setTimeout(callback, ms).unref(),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** One process started through the launcher, until its `close`. */
interface Launched {
  spec: SpawnSpec;
  events: ProcessEvents;
  pid?: number;
  /** It has reported output or its exit: from then on it cannot be started again elsewhere unseen. */
  reported: boolean;
  /** Started directly instead, after the launcher was lost before it reported anything. */
  direct?: ProcessControl;
}

/** The launcher process and what it runs now. */
interface Session {
  child: ChildProcess;
  running: Map<number, Launched>;
  stderr: string;
  closed: Promise<void>;
}

/**
 * Starts processes by a small long-lived node process, the launcher (launcherMain.ts), instead of
 * from this one: on Linux node forks the calling process to start a child, which costs the
 * calling thread about 3 ms per 100 MB it holds (17 ms at 500 MB, an extension host's usual size);
 * the launcher forks itself, some tens of MB. It starts on the first request (never before), ends
 * when idle or shut down, and never keeps this process alive when nothing runs. The environment
 * each process gets goes with its request; the launcher's own holds nothing but what makes the
 * editor's binary run as node. When it cannot start or dies, processes start directly: one that
 * had reported nothing yet is started again that way, one that had is failed (its group killed).
 */
export class ProcessLauncher {
  private session: Session | undefined;
  private nextId = 1;
  private idleTimer: unknown;
  private readonly idleMs: number;
  private readonly timers: LauncherTimers;
  private readonly log: (message: string) => void;
  private readonly nodePath: string;
  private losses = 0;
  /** How many launcher processes were started, and how many processes they were asked to start (the tests and the bench see it work). */
  started = 0;
  launched = 0;
  /** Why no launcher runs any more in this process (it could not start, or was lost too often): processes start directly. */
  unavailable: string | undefined;

  constructor(options: ProcessLauncherOptions = {}) {
    this.idleMs = options.idleMs ?? IDLE_MS;
    this.timers = options.timers ?? REAL_TIMERS;
    this.log = options.log ?? (() => {});
    this.nodePath = options.nodePath ?? process.execPath;
  }

  /** The launcher process's pid, while there is one. */
  get pid(): number | undefined {
    return this.session?.child.pid;
  }

  /** Resolves when the launcher process that runs now (if any) has ended. */
  stopped(): Promise<void> {
    return this.session?.closed ?? Promise.resolve();
  }

  readonly spawn = (spec: SpawnSpec, events: ProcessEvents): ProcessControl => {
    if (this.unavailable !== undefined) return spawnDirectly(spec, events);
    const session = this.session ?? this.startSession();
    if (this.idleTimer !== undefined) this.timers.clear(this.idleTimer);
    this.idleTimer = undefined;
    const id = this.nextId++;
    this.launched++;
    const launched: Launched = { spec, events, reported: false };
    if (session.running.size === 0) refAll(session.child, true);
    session.running.set(id, launched);
    this.send(session, {
      op: 'start',
      id,
      file: spec.file,
      args: spec.args,
      cwd: spec.cwd,
      env: spec.env,
      ...(spec.input ? { input: spec.input.toString('base64') } : {}),
    });
    return {
      signalGroup: (signal) => {
        if (launched.direct) launched.direct.signalGroup(signal);
        else if (session.running.has(id)) this.send(session, { op: 'signal', id, signal });
      },
      closePipes: () => {
        if (launched.direct) launched.direct.closePipes();
        else if (session.running.has(id)) this.send(session, { op: 'closePipes', id });
      },
    };
  };

  /** Ends the launcher and what it runs (the engine is disposed). */
  shutdown(): void {
    const session = this.session;
    if (!session) return;
    this.lose(session, 'it was shut down', 'shutdown');
    session.child.stdin?.end();
    session.child.kill('SIGKILL');
  }

  private startSession(): Session {
    this.started++;
    const child = childProcess().spawn(this.nodePath, ['-e', launcherSource()], {
      // Nothing of this process's environment: the editor's binary runs as plain node (as VS Code starts its own helpers).
      env: { ELECTRON_RUN_AS_NODE: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    let closed!: () => void;
    const session: Session = { child, running: new Map(), stderr: '', closed: new Promise((resolve) => (closed = resolve)) };
    this.session = session;
    const reader = new FrameReader();
    child.stdout?.on('data', (chunk: Buffer) => {
      for (const frame of reader.push(chunk)) this.receive(session, frame);
    });
    child.stderr?.on('data', (chunk: Buffer) => (session.stderr = (session.stderr + chunk.toString('utf8')).slice(-2000)));
    child.stdin?.on('error', () => {}); // it died: 'close' says so
    child.on('error', (error) => {
      if (child.pid === undefined) this.unavailable = `could not start (${error.message})`;
      this.lose(session, error.message, 'lost');
    });
    child.on('close', (code, signal) => {
      this.lose(session, signal ? `it was killed (${signal})` : `it exited with code ${code}`, 'lost');
      closed();
    });
    refAll(child, false);
    return session;
  }

  private send(session: Session, request: LauncherRequest): void {
    if (this.session === session) session.child.stdin?.write(`${JSON.stringify(request)}\n`);
  }

  /** One frame from the launcher, to the process it is about; one that breaks the protocol ends the launcher. */
  private receive(session: Session, frame: Frame): void {
    const launched = session.running.get(frame.id);
    if (!launched || launched.direct) return;
    const { events } = launched;
    const payload = <T>(schema: z.ZodType<T>): T | undefined => {
      const parsed = framePayload(frame, schema);
      if (parsed === undefined) this.broken(session, `it sent a frame of kind ${frame.kind} the protocol does not allow`);
      return parsed;
    };
    if (frame.kind === FRAME.spawned) {
      const spawned = payload(spawnedPayload);
      if (spawned) launched.pid = spawned.pid;
      return;
    }
    if (frame.kind === FRAME.stdout || frame.kind === FRAME.stderr) {
      launched.reported = true;
      return frame.kind === FRAME.stdout ? events.stdout(frame.payload) : events.stderr(frame.payload);
    }
    if (frame.kind === FRAME.exit) {
      const exit = payload(exitPayload);
      if (!exit) return;
      launched.reported = true;
      return events.exit(exit.code);
    }
    if (frame.kind === FRAME.error) {
      const error = payload(errorPayload);
      if (!error) return;
      launched.reported = true;
      return events.error(Object.assign(new Error(error.message), error.code ? { code: error.code } : {}));
    }
    if (frame.kind === FRAME.close) {
      session.running.delete(frame.id);
      events.close();
      return this.whenIdle(session);
    }
    this.broken(session, `it sent a frame of unknown kind ${frame.kind}`);
  }

  private broken(session: Session, why: string): void {
    this.lose(session, why, 'lost');
    session.child.kill('SIGKILL');
  }

  /**
   * The session is over. Lost: what it ran and had reported nothing yet is started directly, the rest
   * failed, and the next request starts a new launcher (unless none can start here). Shut down: all failed.
   */
  private lose(session: Session, why: string, how: 'lost' | 'shutdown'): void {
    if (this.session !== session) return;
    this.session = undefined;
    if (this.idleTimer !== undefined) this.timers.clear(this.idleTimer);
    this.idleTimer = undefined;
    const stderr = session.stderr.trim();
    if (how === 'lost' && ++this.losses >= MAX_LOSSES) this.unavailable ??= `ended ${MAX_LOSSES} times (the last: ${why})`;
    if (how === 'lost' && this.unavailable !== undefined)
      this.log(`The process launcher ${this.unavailable}: ripgrep and git start directly from now on.`);
    else if (how === 'lost')
      this.log(
        `The process launcher ended: ${why}${stderr ? ` (${stderr.split('\n').pop()})` : ''}; what it had not started yet starts directly, and the next process starts a new launcher.`,
      );
    for (const launched of session.running.values()) {
      // What it ran dies with it, not on its own later: nobody reads its output any more.
      if (launched.pid !== undefined) signalProcessGroup(launched.pid, 'SIGKILL');
      if (launched.reported || how === 'shutdown') {
        launched.events.error(new Error(`The process launcher ended while ${launched.spec.file} ran (${why}).`));
        launched.events.close();
      } else launched.direct = spawnDirectly(launched.spec, launched.events);
    }
    session.running.clear();
  }

  private whenIdle(session: Session): void {
    if (session.running.size > 0) return;
    refAll(session.child, false);
    this.idleTimer = this.timers.set(() => {
      this.idleTimer = undefined;
      if (this.session === session && session.running.size === 0) {
        this.session = undefined;
        session.child.stdin?.end();
      }
    }, this.idleMs);
  }
}

/** While something runs through it, the launcher keeps this process alive (as a child process would); idle, never. */
function refAll(child: ChildProcess, ref: boolean): void {
  for (const handle of [child, child.stdin as Socket | null, child.stdout as Socket | null, child.stderr as Socket | null]) {
    if (ref) handle?.ref();
    else handle?.unref();
  }
}
