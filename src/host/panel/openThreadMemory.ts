import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import type { Logger } from '../../core/ports';
import { errorText } from '../../shared/errorText';
import type { ThreadMemory } from './panelController';
import type { WindowMemento } from '../workspace/windowStorage';

/** What the file holds: the thread the panel shows, or null for a new, empty conversation. */
const openThreadFileSchema = z.object({
  threadId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,100}$/)
    .nullable(),
});

/**
 * Remembers the thread the panel shows across window reloads, in `open-thread.json` in this
 * window's storage folder, written before `set` resolves. workspaceState alone is not enough: in a
 * browser (code-server, vscode.dev) the workbench saves it later, and a reload right after a first
 * message lost it, so the panel came back on an empty conversation. workspaceState is still kept in
 * step, and read when there is no file yet (a window from before this file). A file that cannot be
 * read as ours is said in the log and ignored; the panel then starts on a new conversation.
 */
export function openThreadMemory(dir: string, memento: WindowMemento, key: string, logger: Logger): ThreadMemory {
  const file = path.join(dir, 'open-thread.json');
  return {
    get() {
      let text: string;
      try {
        text = fs.readFileSync(file, 'utf8');
      } catch {
        const remembered = memento.get<unknown>(key);
        return typeof remembered === 'string' ? remembered : undefined;
      }
      try {
        const parsed = openThreadFileSchema.safeParse(JSON.parse(text));
        if (parsed.success) return parsed.data.threadId ?? undefined;
      } catch {
        // Not JSON: said below.
      }
      logger.warn(`${file} does not name a thread as the panel writes it; the panel starts on a new conversation.`);
      return undefined;
    },
    async set(threadId) {
      try {
        fs.mkdirSync(dir, { recursive: true });
        // A whole file or none: written beside, then renamed over the old one.
        const temp = `${file}.${process.pid}.tmp`;
        fs.writeFileSync(temp, `${JSON.stringify({ threadId: threadId ?? null })}\n`);
        fs.renameSync(temp, file);
      } catch (error) {
        logger.warn(`Could not remember the open thread in ${file}: ${errorText(error)}. A window reload may open a new conversation.`);
      }
      await memento.update(key, threadId);
    },
  };
}
