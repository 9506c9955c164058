import type { ThreadMeta } from '../../core/storage/threads/threadStore';
import { oneLine } from '../../shared/oneLine';
import { relativeTime } from '../../shared/relativeTime';

/** One conversation in "Open Thread…"'s quick pick. */
export interface ThreadPickItem {
  label: string;
  /** When it was last active, and whether it is the one open in the panel. */
  description: string;
  /** The first line of its first prompt. */
  detail: string;
  threadId: string;
}

/** What "Subagents: Open Thread…" needs of the editor: a port, so it runs in unit tests without vscode. */
export interface OpenThreadDeps {
  /** Every thread in the store (subagents' threads are left out here). */
  list(): Promise<ThreadMeta[]>;
  /** The conversation open in the panel, if any. */
  openThreadId(): string | undefined;
  pick(items: ThreadPickItem[], options: { title: string; placeHolder: string }): Promise<ThreadPickItem | undefined>;
  /** Shows that conversation in the panel. */
  show(threadId: string): Promise<void>;
  info(message: string): void;
  now(): number;
}

/**
 * Opens any conversation from a quick pick, newest first: its title, when it was last active and
 * the first line of its first prompt (so two that start alike, or one renamed, are still known).
 * Returns the id opened, or undefined when there was none or the user backed out.
 */
export async function openThreadCommand(deps: OpenThreadDeps): Promise<string | undefined> {
  const threads = (await deps.list()).filter((t) => t.parentThreadId === null);
  if (threads.length === 0) {
    deps.info('There are no conversations yet: ask something in the Subagents panel first.');
    return undefined;
  }
  const picked = await deps.pick(threadPickItems(threads, deps.openThreadId(), deps.now()), {
    title: 'Open which conversation?',
    placeHolder: 'Type to search by title or first prompt',
  });
  if (!picked) return undefined;
  await deps.show(picked.threadId);
  return picked.threadId;
}

export function threadPickItems(threads: readonly ThreadMeta[], openId: string | undefined, now: number): ThreadPickItem[] {
  return [...threads]
    .sort((a, b) => b.updatedAt - a.updatedAt || b.createdAt - a.createdAt)
    .map((t) => ({
      label: plain(oneLine(t.title || 'Untitled thread', 120)),
      description: `${relativeTime(t.updatedAt, now)}${t.id === openId ? ' · open in the panel' : ''}`,
      detail: plain(oneLine(t.firstPrompt ?? t.title, 200)),
      threadId: t.id,
    }));
}

/** Quick picks draw `$(name)` as an icon: a prompt's text is shown as written, never as icons. */
function plain(text: string): string {
  return text.replace(/\$\(/g, '$\u200b(');
}
