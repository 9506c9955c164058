import { StringDecoder } from 'node:string_decoder';
import type { CommandRequest, CommandResult } from '../../ports';
import { COMMAND_TOKEN } from './commandEnv';
import { OutputCap } from '../../platform/processes/outputCap';
import { spawnDirectly, type Spawner } from '../../platform/processes/spawner';
import { killTokenHolders } from './tokenSweep';

/** Time a killed command gets to exit on SIGTERM before its group is sent SIGKILL. */
const KILL_GRACE_MS = 1000;
/**
 * After the command's own process has ended and everything it left was killed, how long its
 * output pipes may stay open (held by a process that escaped both) before they are closed.
 */
const PIPE_GRACE_MS = 500;

/**
 * Runs a command as `request.launch` says, in a process group of its own, and returns when its
 * main process ends: whatever it left running in the background is killed then (its group, and
 * on Linux every process still carrying its token), so `sleep 300 &` does not hold the tool.
 * A timeout or a cancel kills the same way. In the OS sandbox its PID namespace ends with it,
 * which `setsid` cannot leave; without one the token sweep is a best effort (a process that
 * clears its environment and leaves the group escapes it).
 * Never rejects for the command's own failure: a non-zero exit is a result.
 */
export interface RunProcessStreams {
  /** Takes stdout's bytes as they come (the product's own helpers parse them); the result's output is then stderr alone. */
  onStdout?: (chunk: Buffer) => void;
  /** How it starts: directly unless told (the product's own helpers use the process launcher, src/core/platform/processLauncher/). */
  spawner?: Spawner;
}

export function runProcess(
  request: CommandRequest,
  onOutput?: (text: string) => void,
  streams: RunProcessStreams = {},
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    if (request.signal.aborted) {
      resolve({ exitCode: null, output: '', cutChars: 0, timedOut: false, cancelled: true });
      return;
    }
    const cap = new OutputCap(request.maxOutputChars);
    const token = request.launch.env[COMMAND_TOKEN];
    let timedOut = false;
    let cancelled = false;
    let exitCode: number | null = null;
    let escalation: NodeJS.Timeout | undefined;
    let pipeDeadline: NodeJS.Timeout | undefined;
    const killAll = (signal: NodeJS.Signals) => {
      child.signalGroup(signal);
      if (token) killTokenHolders(token, signal);
    };
    const stop = () => {
      killAll('SIGTERM');
      escalation ??= setTimeout(() => killAll('SIGKILL'), KILL_GRACE_MS);
    };
    const onAbort = () => {
      cancelled = true;
      stop();
    };
    // One decoder per stream: a character split across two chunks is held until it is whole.
    const reader = (decoder: StringDecoder) => (chunk: Buffer) => take(decoder.write(chunk));
    const take = (text: string) => {
      if (!text) return;
      cap.push(text);
      onOutput?.(text);
    };
    const decoders = [new StringDecoder('utf8'), new StringDecoder('utf8')] as const;
    const readStdout = streams.onStdout ?? reader(decoders[0]);
    const readStderr = reader(decoders[1]);
    const cleanup = () => {
      clearTimeout(timer);
      clearTimeout(escalation);
      clearTimeout(pipeDeadline);
      request.signal.removeEventListener('abort', onAbort);
    };
    const { file, args, env, verbatim } = request.launch;
    const child = (streams.spawner ?? spawnDirectly)(
      { file, args, env, cwd: request.cwd, ...(verbatim === undefined ? {} : { verbatim }) },
      {
        stdout: readStdout,
        stderr: readStderr,
        error: (error) => {
          cleanup();
          reject(error);
        },
        // The main process is gone: what it left behind goes with it, and the pipes close once they are drained.
        exit: (code) => {
          exitCode = code;
          killAll('SIGKILL');
          pipeDeadline = setTimeout(() => child.closePipes(), PIPE_GRACE_MS);
        },
        close: () => {
          cleanup();
          for (const decoder of decoders) take(decoder.end());
          const { text, cutChars } = cap.result();
          resolve({ exitCode, output: text, cutChars, timedOut, cancelled });
        },
      },
    );
    // Events come later, never during the start: the timer is set and the signal heard before any.
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, request.timeoutMs);
    request.signal.addEventListener('abort', onAbort, { once: true });
  });
}
