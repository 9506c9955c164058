import { isAbsolute, relative, sep } from 'node:path';
import type { EmitRunEvent } from '../../runEvents';
import type { Workspace } from '../../ports';
import { isInside } from '../../platform/files/isInside';
import { ChangeJournal } from './changeJournal';
import { RunFiles } from './runFiles';
import type { SnapshotStore } from './snapshotStore';
import { WorkspaceWatch } from './workspaceWatch';

export interface RunFilesRequest {
  runId: string;
  agent: string;
  /** The run's workspace: the shared one, or its worktree. */
  workspace: Workspace;
  emit: EmitRunEvent;
  /** When its worktree's checkout was done (its files' times are not changes since the run started). */
  settledAt?: number | undefined;
}

/**
 * What one engine knows about file changes, for all its runs: the journal of who changed what,
 * the snapshots, and one watch per workspace root (with its cache of file hashes). Each run gets
 * its own RunFiles over it.
 */
export class FileChanges {
  readonly journal = new ChangeJournal();
  private readonly watches = new Map<string, WorkspaceWatch>();

  /**
   * @param exclude absolute folders never counted as changes: the thread storage when it lies inside
   *   the workspace (its snapshots would otherwise be a command's changes)
   */
  constructor(
    readonly snapshots: SnapshotStore,
    private readonly exclude: readonly string[] = [],
  ) {}

  forRun(request: RunFilesRequest): RunFiles {
    return new RunFiles(this, request);
  }

  watchFor(root: string): WorkspaceWatch {
    let watch = this.watches.get(root);
    if (!watch) {
      const inside = this.exclude
        .filter((e) => isAbsolute(e) && isInside(root, e) && e !== root)
        .map((e) => relative(root, e).split(sep).join('/'));
      watch = new WorkspaceWatch(root, this.snapshots, inside);
      this.watches.set(root, watch);
    }
    return watch;
  }
}
