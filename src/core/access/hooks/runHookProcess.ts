import { childProcess } from '../../platform/processes/childProcess';
import type { CommandLaunch } from '../../ports';

/** What one hook command did. `exitCode` is null when it was killed (its timeout, a cancel) or could not start. */
export interface HookProcessResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  durationMs: number;
  timedOut: boolean;
  /** Why it could not start, when it could not. */
  startError?: string;
  /** Its stdout or stderr was longer than the cap and was cut. */
  truncated: boolean;
}

/** What a hook may print that is read: a hook that prints more is cut there (and said). */
export const HOOK_OUTPUT_CAP = 64 * 1024;

export interface HookProcessRequest {
  /** What starts, with its whole environment: the shell, or the OS sandbox around it (hookLaunch.ts). */
  launch: CommandLaunch;
  /** The JSON written to its stdin. */
  input: unknown;
  cwd: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * Runs a hook command as Claude Code does, through the shell (hookLaunch.ts says whether inside the
 * OS sandbox), in its own process group (so its timeout ends everything it started), with the
 * event's JSON on stdin.
 */
export function runHookProcess(request: HookProcessRequest): Promise<HookProcessResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    const out = capped();
    const err = capped();
    let timedOut = false;
    let settled = false;
    // node:child_process is required by the first hook, not as engine.js loads (platform/processes/childProcess.ts).
    const child = childProcess().spawn(request.launch.file, request.launch.args, {
      cwd: request.cwd,
      env: request.launch.env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const finish = (exitCode: number | null, startError?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      // Whatever it left behind in its group goes with it.
      killGroup();
      child.stdout.destroy();
      child.stderr.destroy();
      resolve({
        exitCode,
        stdout: out.text(),
        stderr: err.text(),
        durationMs: Math.round(performance.now() - started),
        timedOut,
        truncated: out.truncated() || err.truncated(),
        ...(startError ? { startError } : {}),
      });
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, request.timeoutMs);
    const onAbort = () => killGroup();
    request.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', out.add);
    child.stderr.on('data', err.add);
    child.on('error', (error) => finish(null, error.message));
    // 'exit', not 'close': a grandchild that keeps the pipes open does not hold the run.
    child.on('exit', (code) => setImmediate(() => finish(timedOut ? null : code)));
    child.stdin.on('error', () => {}); // a hook that does not read its stdin
    child.stdin.end(JSON.stringify(request.input));
  });
}

function capped() {
  const chunks: Buffer[] = [];
  let size = 0;
  let cut = false;
  return {
    add: (chunk: Buffer) => {
      if (size >= HOOK_OUTPUT_CAP) {
        cut = true;
        return;
      }
      const room = HOOK_OUTPUT_CAP - size;
      if (chunk.length > room) cut = true;
      chunks.push(chunk.subarray(0, room));
      size += Math.min(room, chunk.length);
    },
    text: () => Buffer.concat(chunks).toString('utf8'),
    truncated: () => cut,
  };
}
