import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeFoldersOfEndedProcesses } from './deadProcessLeftovers';

/**
 * A new folder in the OS temp folder that lasts as long as this process: removed when it exits
 * (normally or by an uncaught error), so every window that needed one does not leave it behind. It
 * is named `<prefix><pid>-…`: a killed process cannot remove its own, so the next one to make such a
 * folder removes those of processes that are gone.
 */
export function processTempFolder(prefix: string): string {
  const parent = tmpdir();
  removeFoldersOfEndedProcesses(parent, prefix);
  const folder = mkdtempSync(join(parent, `${prefix}${process.pid}-`));
  process.once('exit', () => {
    try {
      rmSync(folder, { recursive: true, force: true });
    } catch {
      // Exiting: nothing to tell, and the OS cleans its temp folder.
    }
  });
  return folder;
}
