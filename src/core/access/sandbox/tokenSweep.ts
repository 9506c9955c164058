import { readdirSync, readFileSync } from 'node:fs';
import { COMMAND_TOKEN } from './commandEnv';

/**
 * Best effort, Linux only: signals every process whose environment carries `token`, which each
 * command gets (see commandEnv.ts) and its children inherit. It finds what left the command's
 * process group (`setsid`, a daemon) outside the sandbox, but not a process that cleared its
 * environment. Without /proc (macOS, Windows) it does nothing.
 */
export function killTokenHolders(token: string, signal: NodeJS.Signals): void {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return;
  }
  const needle = Buffer.from(`${COMMAND_TOKEN}=${token}\0`);
  for (const pid of pids) {
    if (Number(pid) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${pid}/environ`).includes(needle)) process.kill(Number(pid), signal);
    } catch {
      // Gone already, or not ours to read.
    }
  }
}
