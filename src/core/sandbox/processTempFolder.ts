import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A new folder in the OS temp folder that lasts as long as this process: removed when it exits
 * (normally or by an uncaught error), so every window that needed one does not leave it behind. A
 * killed process leaves it to the OS's own temp cleaning; it holds a few small files.
 */
export function processTempFolder(prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  process.once('exit', () => {
    try {
      rmSync(folder, { recursive: true, force: true });
    } catch {
      // Exiting: nothing to tell, and the OS cleans its temp folder.
    }
  });
  return folder;
}
