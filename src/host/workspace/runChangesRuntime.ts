import * as path from 'node:path';
import * as vscode from 'vscode';
import { RunChangeActions } from '../../core/changes/attribution/runChangeActions';
import { threadSnapshots } from '../../core/changes/attribution/threadSnapshots';
import type { ApprovalRequest, Logger, Workspace } from '../../core/ports';
import type { ThreadStore } from '../../core/storage/threads/threadStore';
import { Worktrees } from '../../core/changes/worktrees/worktrees';
import { errorText } from '../../shared/errorText';
import type { RunEvent } from '../../shared/events';
import { PanelRunChanges } from '../panel/panelRunChanges';
import { registerProposedDocuments } from './proposedDocuments';
import { registerSnapshotDocuments } from './snapshotDocuments';
import { vscodeRunChangesUi } from './vscodeRunChangesUi';

/**
 * Where a window keeps what is behind its runs' changes, beside its threads: the snapshots
 * (`subagents.snapshots.maxMB`) and the worktrees of isolated runs. Worktrees no thread references
 * any more are cleaned up now, in the background; the size cap is checked too.
 */
export function runChangesStorage(options: { threadsDir: string; store: ThreadStore; maxMB: () => number; logger: Logger }) {
  const snapshots = threadSnapshots(options);
  const worktrees = new Worktrees(path.join(options.threadsDir, 'worktrees'));
  void worktrees
    .cleanup(async (id) => (await options.store.get(id)) !== undefined)
    .then(({ removed, finished, refused }) => {
      if (removed.length || finished.length)
        options.logger.info(
          `Worktrees at start-up: ${removed.length} removed (no thread refers to them), ${finished.length} left by an ended window now wait for Apply or Discard.`,
        );
      for (const { reason } of refused) options.logger.warn(reason);
    })
    .catch((error: unknown) => options.logger.warn(`Could not clean up old worktrees: ${errorText(error)}`));
  void snapshots.enforceCap();
  return { snapshots, worktrees };
}

/** The panel's run changes over the editor: its actions, the snapshot documents of diffs. */
export function panelRunChanges(options: {
  storage: ReturnType<typeof runChangesStorage>;
  store: ThreadStore;
  workspace: Workspace;
  engine: { onEvent(listener: (event: RunEvent) => void): () => void; publish(event: RunEvent): void };
  logger: Logger;
  approvals: { waiting(): ApprovalRequest[] };
}): { panel: PanelRunChanges; disposable: vscode.Disposable } {
  const actions = new RunChangeActions({
    store: options.store,
    snapshots: options.storage.snapshots,
    worktrees: options.storage.worktrees,
    workspace: options.workspace,
    publish: (event) => options.engine.publish(event),
  });
  const { engine, logger, approvals } = options;
  const panel = new PanelRunChanges({ actions, ui: vscodeRunChangesUi, engine, logger, approvals });
  const documents = registerSnapshotDocuments((hash, threadId) => actions.snapshot(hash, threadId));
  const proposed = registerProposedDocuments((id) => approvals.waiting().find((a) => a.approvalId === id)?.change);
  return { panel, disposable: vscode.Disposable.from(documents, proposed, { dispose: () => panel.dispose() }) };
}
