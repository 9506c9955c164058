import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import type { CommandRequest, CommandResult } from '../ports';
import { OutputCap } from '../tools/outputCap';

/** Time a killed command gets to exit on SIGTERM before its group is sent SIGKILL. */
const KILL_GRACE_MS = 2000;

/**
 * Runs a command line in a shell of its own process group, so a timeout or a cancel kills
 * everything it started (pipelines, background jobs, test runners' workers), not just the shell.
 * Never rejects for the command's own failure: a non-zero exit is a result.
 */
export function runProcess(request: CommandRequest, onOutput?: (text: string) => void): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    if (request.signal.aborted) {
      resolve({ exitCode: null, output: '', cutChars: 0, timedOut: false, cancelled: true });
      return;
    }
    const cap = new OutputCap(request.maxOutputChars);
    const child = spawnShell(request);
    let timedOut = false;
    let cancelled = false;
    let escalation: NodeJS.Timeout | undefined;
    const stop = () => {
      killGroup(child, 'SIGTERM');
      escalation ??= setTimeout(() => killGroup(child, 'SIGKILL'), KILL_GRACE_MS);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, request.timeoutMs);
    const onAbort = () => {
      cancelled = true;
      stop();
    };
    request.signal.addEventListener('abort', onAbort, { once: true });
    // One decoder per stream: a character split across two chunks is held until it is whole.
    const reader = (decoder: StringDecoder) => (chunk: Buffer) => take(decoder.write(chunk));
    const take = (text: string) => {
      if (!text) return;
      cap.push(text);
      onOutput?.(text);
    };
    const decoders = [new StringDecoder('utf8'), new StringDecoder('utf8')] as const;
    child.stdout?.on('data', reader(decoders[0]));
    child.stderr?.on('data', reader(decoders[1]));
    child.on('error', (error) => {
      clearTimeout(timer);
      request.signal.removeEventListener('abort', onAbort);
      reject(error);
    });
    // 'close' waits for the pipes too; a background job that keeps them open is killed with the group.
    child.on('close', (code) => {
      clearTimeout(timer);
      request.signal.removeEventListener('abort', onAbort);
      // The shell is gone; make sure nothing it left behind in its group outlives it.
      killGroup(child, 'SIGKILL');
      for (const decoder of decoders) take(decoder.end());
      clearTimeout(escalation);
      const { text, cutChars } = cap.result();
      resolve({ exitCode: code, output: text, cutChars, timedOut, cancelled });
    });
  });
}

function spawnShell(request: CommandRequest): ChildProcess {
  const env: NodeJS.ProcessEnv = { ...process.env, PAGER: 'cat', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0' };
  // Inherited from the editor's extension host, it would turn any Electron app started here into plain node.
  delete env.ELECTRON_RUN_AS_NODE;
  if (process.platform === 'win32') {
    return spawn(process.env.ComSpec ?? 'cmd.exe', ['/d', '/s', '/c', request.command], {
      cwd: request.cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
      windowsVerbatimArguments: true,
    });
  }
  const shell = existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh';
  // detached: the shell leads a new process group, which is what killGroup signals.
  return spawn(shell, ['-c', request.command], { cwd: request.cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    if (process.platform === 'win32') {
      spawn('taskkill', ['/pid', String(child.pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
    } else {
      process.kill(-child.pid, signal);
    }
  } catch {
    // ESRCH: the group is already gone.
  }
}
