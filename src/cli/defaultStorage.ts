import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { errorText } from '../shared/errorText';
import type { Logger } from '../core/ports';

/** The folder the CLI keeps its threads in when `--storage` is not given: `<workspace>/.subagents/threads`. */
export function defaultStorageOf(workspace: string): string {
  return resolve(workspace, '.subagents', 'threads');
}

/** Ignores everything beside it, itself included: the folder never shows in `git status`. */
const IGNORE_ALL = '*\n';

/**
 * Makes `<workspace>/.subagents` for the default storage, with a `.gitignore` of its own, so a
 * run leaves `git status` as it found it. Only when this call makes the folder: one that is
 * there already is the user's (or an earlier version's) to keep as it is. Another storage
 * (`--storage DIR`) is left to the store, which makes it bare.
 */
export async function prepareStorage(workspace: string, storage: string, logger: Logger): Promise<void> {
  if (storage !== defaultStorageOf(workspace)) return;
  const folder = dirname(storage);
  try {
    // Not recursive, so a folder (or a link) of that name made by anyone else is never written in.
    await mkdir(folder);
  } catch {
    // There before (EEXIST), or it cannot be made: then the store says so when it makes its own.
    return;
  }
  // `wx`: never over a file (or a link) that appeared meanwhile.
  await writeFile(join(folder, '.gitignore'), IGNORE_ALL, { flag: 'wx' }).catch((error: unknown) =>
    logger.warn(
      `Could not write ${join(folder, '.gitignore')}: ${errorText(error)}. Add ".subagents/" to the workspace's .gitignore to keep the threads out of git.`,
    ),
  );
}
