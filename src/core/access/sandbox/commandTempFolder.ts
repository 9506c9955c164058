import { mkdtempSync } from 'node:fs';
import { chmod, lstat, readdir, rmdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { processTempFolder } from './processTempFolder';

/**
 * Each sandboxed command's own temp folder. Inside the sandbox `/tmp` is read-only and
 * sandbox-runtime points TMPDIR at a folder that does not exist, so test runners (vitest, jest,
 * pytest, go test, cargo) fail before their first test. Each command gets a fresh folder, made
 * here outside the sandbox (0700, neutral name, outside the workspace so nothing in it is a
 * change of the workspace), writable to that command alone, and removed when it has ended.
 */

let parent: string | undefined;

/** A new, empty folder for one command, in this process's folder of them (removed at exit). */
export function newCommandTempFolder(): string {
  parent ??= processTempFolder('subagents-cmd-');
  // mkdtemp makes it 0700: another user of the machine cannot look in or plant anything first.
  return mkdtempSync(join(parent, 'tmp-'));
}

/** `command` with TMPDIR, TMP and TEMP set to `folder` (sandbox-runtime sets TMPDIR itself, after the environment is read). */
export function withTempFolder(command: string, folder: string): string {
  const quoted = `'${folder.replace(/'/g, `'\\''`)}'`;
  // One line, so the command's own line numbers in shell messages stay as the model wrote them.
  return `export TMPDIR=${quoted} TMP=${quoted} TEMP=${quoted}; ${command}`;
}

/**
 * Removes a command's temp folder once the command has ended. It never follows a symbolic link:
 * each entry is looked at with lstat, a link is unlinked as the link it is, and only what lstat
 * calls a folder is entered. Nothing of the command can swap an entry meanwhile: bubblewrap runs
 * it in its own pid namespace, whose processes all end with it, and no other command may write
 * here. Folders the command made unwritable (a module cache's 0555) are opened up first. Never
 * throws: what cannot go stays until the process's folder of them goes at exit.
 */
export async function removeCommandTempFolder(folder: string): Promise<void> {
  try {
    await removeTree(folder);
  } catch {
    // Left for the exit handler of processTempFolder, and the OS's cleaning of its temp folder.
  }
}

async function removeTree(path: string): Promise<void> {
  const info = await lstat(path).catch(() => undefined);
  if (!info) return;
  if (!info.isDirectory()) {
    await unlink(path);
    return;
  }
  if ((info.mode & 0o700) !== 0o700) await chmod(path, 0o700);
  for (const name of await readdir(path)) await removeTree(join(path, name));
  await rmdir(path);
}
