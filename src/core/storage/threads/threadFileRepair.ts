import { fstatSync, rmSync } from 'node:fs';
import { appendFile, truncate, writeFile } from 'node:fs/promises';
import type { ParsedThreadFile } from './threadFile';

/**
 * Readies a thread file for appends by its new writer (only with the lease held, so nobody else
 * appends): the next append must start on a fresh line, so a torn record is cut off and a whole
 * one without its newline is ended. A missing file is made.
 */
export async function repairTail(path: string, parsed: ParsedThreadFile): Promise<void> {
  if (parsed.torn) await truncate(path, parsed.keepBytes);
  else if (parsed.needsNewline) await appendFile(path, '\n');
  else await writeFile(path, '', { flag: 'a' });
}

/** Removes a file this process made if nothing was written to it (a refused lease's); its writer closes it. */
export function removeIfEmpty(fd: number, path: string): void {
  try {
    if (fstatSync(fd).size === 0) rmSync(path, { force: true });
  } catch {
    // Left behind: an empty file is listed by no window, and the next open of its id is refused (`wx`), never written over.
  }
}
