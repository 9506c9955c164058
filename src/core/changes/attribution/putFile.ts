import { deleteInside } from '../../platform/files/deleteInside';
import { oneFileAtATime } from '../../platform/files/oneFileAtATime';
import { writeInside } from '../../platform/files/writeInside';
import type { Workspace } from '../../ports';
import { resolveWorkspacePath } from '../../access/paths/workspacePath';

/**
 * Gives a workspace file this content, or removes it (null), bound to the file the path leads to
 * right now (no link on the way, the same dev/ino when written). Text that survives a UTF-8 round
 * trip goes through the Workspace port, so an open editor keeps Undo; other bytes are written as
 * they are. For reverts and applies, which put back or bring in whole files.
 */
export async function putFile(workspace: Workspace, path: string, content: Buffer | null): Promise<void> {
  // In line with the agents' edits of the same file (oneFileAtATime.ts): a revert never lands in the middle of one.
  const keyOf = async () => {
    const first = await resolveWorkspacePath(workspace.root, path);
    return first.ok ? first.abs : undefined;
  };
  await oneFileAtATime(keyOf, new AbortController().signal, () => putNow(workspace, path, content));
}

async function putNow(workspace: Workspace, path: string, content: Buffer | null): Promise<void> {
  const where = await resolveWorkspacePath(workspace.root, path);
  if (!where.ok) throw new Error(where.error);
  if (content === null) {
    if (where.identity) await deleteInside(workspace.root, where.abs, where.identity);
    return;
  }
  const expected = where.exists ? (where.identity ?? null) : null;
  const text = content.toString('utf8');
  if (Buffer.from(text, 'utf8').equals(content)) await workspace.writeFile(where.abs, text, expected);
  else await writeInside(workspace.root, where.abs, content, expected);
}
