import { readFile, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunNode } from '../../../shared/runTree';
import type { Workspace } from '../../ports';
import type { ThreadStore } from '../../storage/threads/threadStore';
import type { ApplyResult } from '../worktrees/applyWorktree';
import type { WorktreeManifest } from '../worktrees/worktreeManifest';
import type { Worktrees } from '../worktrees/worktrees';
import { WorktreeRecordRefused } from '../worktrees/worktreeTrust';
import { contentHash } from './contentHash';
import type { RunEvent } from '../../../shared/events';
import { recordRevert } from './recordRevert';
import { revertRun, type RevertResult } from './revertRun';
import { loadRun } from './runChanges';
import { seeFile } from './seenFile';
import type { SnapshotStore } from './snapshotStore';

/** A request about a run's changes that cannot be carried out: the sentence says why and what to do. */
export class RunChangeError extends Error {
  override readonly name = 'RunChangeError';
}

export interface RunChangeDeps {
  store: ThreadStore;
  snapshots: SnapshotStore;
  worktrees?: Worktrees | undefined;
  /** The workspace the runs work in. */
  workspace: Workspace;
  /** Tells the live views of an event written outside any run (Engine.publish): a revert's run.reverted. */
  publish?: (event: RunEvent) => void;
  /** Epoch milliseconds, for the revert's record (default: the system's). */
  now?: () => number;
}

/** A revert's outcome, with what became of its record in the thread (none for a dry run or when nothing changed). */
export interface RecordedRevert extends RevertResult {
  /** The run's thread could not be told (another window writes it, the disk failed): the node will not read "reverted". */
  unrecorded?: string;
}

/** The two sides of one changed file's diff: before from its snapshot; after the live file while it is what the run left, else its snapshot. */
export interface DiffSides {
  path: string;
  before: string | null;
  after: { file: string } | { snapshot: string | null };
  /** The live file is no longer what the run left (the after side is the snapshot). */
  changedSince: boolean;
  /** The agent whose run made the change, for the diff's title. */
  agent: string;
}

/**
 * What a user does with one run's work, the same for the panel and the CLI: see each file's diff,
 * revert the run (revertRun.ts), and for a worktree run apply or discard it.
 */
export class RunChangeActions {
  constructor(private readonly deps: RunChangeDeps) {}

  async run(threadId: string, runId: string): Promise<RunNode> {
    const run = await loadRun(this.deps.store, threadId, runId);
    if (!run) throw new RunChangeError(`There is no run "${runId}" in that conversation (it may have been deleted).`);
    return run;
  }

  async revert(
    threadId: string,
    runId: string,
    options: { dryRun?: boolean; confirmOverlap?: (paths: string[]) => Promise<boolean> } = {},
  ): Promise<RecordedRevert> {
    const run = await this.run(threadId, runId);
    await this.refuseOtherWorkspace(runId);
    const pending = await this.pendingOf(runId);
    if (pending)
      throw new RunChangeError(
        `This run worked in a git worktree, so its changes are not in the workspace: apply them or discard them instead.`,
      );
    const prunedNote = await this.deps.snapshots.prunedNote(threadId);
    // A file an earlier revert restored is not looked at again: whatever it is now, it is not "changed since" this run.
    const earlier = new Set(run.reverted?.files ?? []);
    const files = run.changes?.files ?? [];
    const result: RecordedRevert = await revertRun({
      workspace: this.deps.workspace,
      snapshots: this.deps.snapshots,
      files: files.filter((f) => !earlier.has(f.path)),
      ...(options.dryRun ? { dryRun: true } : {}),
      ...(options.confirmOverlap ? { confirmOverlap: options.confirmOverlap } : {}),
      ...(prunedNote ? { prunedNote } : {}),
    });
    const asBefore = [...result.reverted, ...(result.alreadyReverted ?? [])];
    const found = new Set(result.alreadyReverted);
    const already = files.filter((f) => found.has(f.path) || (earlier.has(f.path) && f.beforeHash !== f.afterHash)).map((f) => f.path);
    if (already.length) result.alreadyReverted = already;
    if (options.dryRun || asBefore.length === 0) return result;
    const now = this.deps.now?.() ?? Date.now();
    const record = await recordRevert(this.deps.store, { threadId: run.threadId, runId, ts: now }, asBefore, result.skipped);
    if ('event' in record) this.deps.publish?.(record.event);
    else result.unrecorded = record.error;
    return result;
  }

  async diffSides(threadId: string, runId: string, path: string): Promise<DiffSides> {
    const run = await this.run(threadId, runId);
    const file = run.changes?.files.find((f) => f.path === path);
    if (!file) throw new RunChangeError(`Run "${runId}" did not change ${path}.`);
    const pending = await this.pendingOf(runId);
    const abs = pending ? join(pending.path, pending.prefix, path) : join(this.deps.workspace.root, path);
    const now = pending ? await hashOnDisk(abs) : (await seeFile(this.deps.workspace, abs)).hash;
    const live = now === file.afterHash && file.afterHash !== null;
    return {
      path,
      before: file.beforeHash,
      after: live ? { file: abs } : { snapshot: file.afterHash },
      changedSince: !live && now !== file.afterHash,
      agent: run.agent,
    };
  }

  /** The content of a snapshot, or why it is not there. */
  async snapshot(hash: string | null, threadId?: string): Promise<string> {
    if (hash === null) return '';
    const data = await this.deps.snapshots.get(hash);
    if (data) return data.toString('utf8');
    const why = threadId ? await this.deps.snapshots.prunedNote(threadId) : undefined;
    return `(No snapshot of this content is kept: ${why ?? 'it was too large to keep, or it was removed'}.)`;
  }

  async apply(runId: string): Promise<ApplyResult & { keptBranch?: string }> {
    const pending = await this.pendingOf(runId);
    if (!pending || !this.deps.worktrees) throw new RunChangeError(NOT_PENDING);
    await this.refuseOtherWorkspace(runId);
    const worktrees = this.deps.worktrees;
    return (await refusedAsRunChangeError(runId, () => worktrees.apply(runId, this.deps.workspace)))!;
  }

  async discard(runId: string): Promise<WorktreeManifest> {
    const pending = await this.pendingOf(runId);
    if (!pending || !this.deps.worktrees) throw new RunChangeError(NOT_PENDING);
    const worktrees = this.deps.worktrees;
    await refusedAsRunChangeError(runId, () => worktrees.discard(pending));
    return pending;
  }

  /**
   * A run acts only on the workspace it started in: a worktree record of the run that names
   * another workspace root (the run was started elsewhere, or the record was forged: it lives
   * beside the threads, which may be in the workspace) is refused before anything is written.
   */
  private async refuseOtherWorkspace(runId: string): Promise<void> {
    const manifest = await this.deps.worktrees?.get(runId);
    if (!manifest) return;
    const here = await realpath(this.deps.workspace.root).catch(() => this.deps.workspace.root);
    if (manifest.workspaceRoot !== here) {
      throw new RunChangeError(
        `Run "${runId}" was recorded as working in ${manifest.workspaceRoot}, not in this workspace (${here}); nothing was changed. Open that folder (the CLI's --workspace) to act on it, or, if you did not start a run there, delete ${manifest.runId}.json in the worktrees folder beside the threads.`,
      );
    }
  }

  /** The threads whose runs can no longer be reverted (the size cap took their snapshots), each with why. */
  revertUnavailable(): Promise<Record<string, string>> {
    return this.deps.snapshots.prunedNotes();
  }

  /** Worktree runs waiting for Apply or Discard. */
  async pending(): Promise<WorktreeManifest[]> {
    return (await this.deps.worktrees?.list())?.filter((m) => m.state === 'pending') ?? [];
  }

  private async pendingOf(runId: string): Promise<WorktreeManifest | undefined> {
    const manifest = await this.deps.worktrees?.get(runId);
    return manifest?.state === 'pending' ? manifest : undefined;
  }
}

/** A worktree record the product will not act on, said as what the user asked could not be done. */
async function refusedAsRunChangeError<T>(runId: string, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof WorktreeRecordRefused)
      throw new RunChangeError(`The worktree record of run "${runId}" was not acted on: ${error.message}. Nothing was changed.`);
    throw error;
  }
}

const NOT_PENDING = 'This run has no changes waiting in a worktree (it did not work in one, or they were applied or discarded already).';

async function hashOnDisk(abs: string): Promise<string | null> {
  const data = await readFile(abs).catch(() => undefined);
  return data ? contentHash(data) : null;
}
