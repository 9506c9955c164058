import type { FileChangeNode } from '../../../shared/runTree';
import { errorText } from '../../../shared/errorText';
import type { Workspace } from '../../ports';
import { resolveWorkspacePath } from '../../access/paths/workspacePath';
import { putFile } from './putFile';
import { seeFile } from './seenFile';
import type { SnapshotStore } from './snapshotStore';

export interface RevertRequest {
  /** The workspace the run changed. */
  workspace: Workspace;
  snapshots: SnapshotStore;
  /** The run's changed files, each from its first before to its last after (the run node's `changes`). */
  files: readonly FileChangeNode[];
  /** Say what would happen, change nothing. */
  dryRun?: boolean;
  /**
   * Asked once with the files whose author is uncertain (another command ran at the same time):
   * true reverts them too. Without it they are skipped.
   */
  confirmOverlap?: (paths: string[]) => Promise<boolean>;
  /** Why the run's snapshots are gone, when the size cap took them (SnapshotStore.prunedNote). */
  prunedNote?: string;
}

export interface RevertResult {
  reverted: string[];
  skipped: { path: string; reason: string }[];
  /** Files already as they were before the run (a revert done before): nothing to undo, not "changed since". */
  alreadyReverted?: string[];
}

/**
 * Undoes one run's changes, file by file, and only where the file still is exactly what the run
 * left (its after-hash, as the user sees it: unsaved editor text counts): a file someone changed
 * since is listed, never overwritten. A change whose author is uncertain is reverted only when
 * confirmed. Restores go through the Workspace port (an open editor keeps Undo).
 */
export async function revertRun(request: RevertRequest): Promise<RevertResult> {
  const result: RevertResult = { reverted: [], skipped: [] };
  const ready: { file: FileChangeNode; abs: string; content: Buffer | null }[] = [];
  for (const file of request.files) {
    if (file.beforeHash === file.afterHash) continue; // made and taken back by the run itself
    const where = await resolveWorkspacePath(request.workspace.root, file.path);
    if (!where.ok) {
      result.skipped.push({ path: file.path, reason: where.error });
      continue;
    }
    const now = await seeFile(request.workspace, where.abs);
    if (now.hash === file.beforeHash) {
      (result.alreadyReverted ??= []).push(file.path);
      continue;
    }
    if (now.hash !== file.afterHash) {
      result.skipped.push({ path: file.path, reason: changedSince(file, now.hash) });
      continue;
    }
    let content: Buffer | null = null;
    if (file.beforeHash !== null) {
      content = (await request.snapshots.get(file.beforeHash)) ?? null;
      if (!content) {
        result.skipped.push({
          path: file.path,
          reason: `no snapshot of its earlier content is kept (${request.prunedNote ?? 'it was too large to keep, or was removed'})`,
        });
        continue;
      }
    }
    ready.push({ file, abs: where.abs, content });
  }
  const uncertain = ready.filter((r) => r.file.attribution === 'overlap').map((r) => r.file.path);
  const confirmed = uncertain.length > 0 && request.confirmOverlap ? await request.confirmOverlap(uncertain) : false;
  for (const item of ready) {
    const { path } = item.file;
    if (item.file.attribution === 'overlap' && !confirmed) {
      result.skipped.push({
        path,
        reason: 'another command ran at the same time, so this run may not have made this change; it is reverted only when you confirm',
      });
      continue;
    }
    if (request.dryRun) {
      result.reverted.push(path);
      continue;
    }
    try {
      // The confirmation may have taken a while: the file must still be what the run left.
      const now = await seeFile(request.workspace, item.abs);
      if (now.hash !== item.file.afterHash) {
        result.skipped.push({ path, reason: changedSince(item.file, now.hash) });
        continue;
      }
      await putFile(request.workspace, item.abs, item.content);
      result.reverted.push(path);
    } catch (error) {
      result.skipped.push({ path, reason: `it could not be restored: ${errorText(error)}` });
    }
  }
  return result;
}

function changedSince(file: FileChangeNode, now: string | null): string {
  if (now === null) return 'it was deleted since this run changed it';
  if (file.afterHash === null) return 'this run deleted it, and a file of that name is there again';
  return 'it was changed since this run changed it (by the user, another run or a later step), so reverting it would lose that change';
}
