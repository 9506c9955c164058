import { lstatSync, readdirSync, rmSync, unlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { isProcessAlive } from '../../platform/files/fileLock';

/**
 * What processes that were killed (SIGKILL, a crash: no exit handler ran) left in the temp folder.
 * Such files are named after the process that made them; the next process to make its own removes
 * those whose process is gone, so a machine where windows are killed now and then does not gather
 * them for ever.
 */

/** The paths in `folder` whose name gives a maker's pid (`pidOf`) of a process that has ended. */
function leftoversOfEndedProcesses(folder: string, pidOf: (name: string) => string | undefined): string[] {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  return names
    .filter((name) => {
      const pid = Number(pidOf(name) ?? Number.NaN);
      return Number.isInteger(pid) && pid > 0 && pid !== process.pid && !isProcessAlive(pid);
    })
    .map((name) => join(folder, name));
}

/** Removes the folders named `<prefix><pid>-…` of ended processes; one that cannot go stays (the OS cleans its temp folder). */
export function removeFoldersOfEndedProcesses(folder: string, prefix: string): void {
  const pidOf = (name: string) => (name.startsWith(prefix) ? /^(\d+)-/.exec(name.slice(prefix.length))?.[1] : undefined);
  for (const path of leftoversOfEndedProcesses(folder, pidOf)) {
    try {
      rmSync(path, { recursive: true, force: true });
    } catch {
      // Another user's, or going away meanwhile: not ours to insist on.
    }
  }
}

/** sandbox-runtime's proxy socket: `srt-mux-<pid>-<n>.sock` in the temp folder (its mux-proxy.js). */
const SANDBOX_SOCKET = /^srt-mux-(\d+)-[0-9a-z]+\.sock$/;

/**
 * Removes the proxy sockets that sandbox-runtime's processes left when they were killed: those whose
 * process is gone and on which no one listens (a pid of another pid namespace sharing the folder may
 * look gone while its socket is live; a connection tells). Resolves with how many it removed.
 */
export async function removeStaleSandboxSockets(folder = tmpdir()): Promise<number> {
  const limit = pLimit(16);
  const removed = await Promise.all(
    leftoversOfEndedProcesses(folder, (name) => SANDBOX_SOCKET.exec(name)?.[1]).map((path) =>
      limit(async () => {
        if (!lstatSync(path, { throwIfNoEntry: false })?.isSocket() || !(await refusesConnections(path))) return false;
        try {
          unlinkSync(path);
          return true;
        } catch {
          return false;
        }
      }),
    ),
  );
  return removed.filter(Boolean).length;
}

/** True when connecting to the socket is refused: no process listens on it any more. */
function refusesConnections(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(path);
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}
