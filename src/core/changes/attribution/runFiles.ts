import { join } from 'node:path';
import type { EmitRunEvent } from '../../runEvents';
import type { Workspace } from '../../ports';
import { errorText } from '../../../shared/errorText';
import type { ChangeJournal } from './changeJournal';
import { contentHash } from './contentHash';
import { lineCounts } from './lineCounts';
import { changedAfterFor, ReadLedger } from './readLedger';
import { seeFile, type SeenFile } from './seenFile';
import { MAX_SNAPSHOT_BYTES, type SnapshotStore } from './snapshotStore';
import type { TreeState } from './treeState';
import type { TreeChange, WorkspaceWatch } from './workspaceWatch';
import { guardWrite } from './writeGuard';

/** What a run's files need from the engine's FileChanges. */
export interface FileChangesDeps {
  journal: ChangeJournal;
  snapshots: SnapshotStore;
  watchFor(root: string): WorkspaceWatch;
}

export interface RunIdentity {
  runId: string;
  agent: string;
  workspace: Workspace;
  emit: EmitRunEvent;
  /** When its own set-up last wrote its files (a worktree's checkout): not a change since it started. */
  settledAt?: number | undefined;
}

/** A write the guard let through: what the file was, to record the change against. */
export type WriteCheck = { ok: true; current: SeenFile } | { ok: false; error: string };

/**
 * One run's side of change tracking, for its tools: what it read (the guard's memory), the guard
 * itself, and the `file.changed` events of its writes and commands, with their snapshots.
 */
export class RunFiles {
  private readonly ledger: ReadLedger;
  private warned = false;

  constructor(
    private readonly deps: FileChangesDeps,
    private readonly run: RunIdentity,
  ) {
    this.ledger = new ReadLedger(deps.journal.tick(), changedAfterFor(Date.now(), run.settledAt));
  }

  /** read_file gave the agent this content: a write is judged against it from now on. */
  read(abs: string, text: string): void {
    this.ledger.saw(abs, contentHash(text), this.deps.journal.tick());
  }

  /** The conflict guard: the file as it is now, or why a write to it is refused. */
  async check(abs: string, rel: string, kind: 'write' | 'edit'): Promise<WriteCheck> {
    const current = await seeFile(this.run.workspace, abs);
    const error = guardWrite({ journal: this.deps.journal, ledger: this.ledger, runId: this.run.runId, abs, rel, current, kind });
    return error ? { ok: false, error } : { ok: true, current };
  }

  /** A write_file or edit_file wrote `after` over `before`: snapshots, the journal, the run's memory and its event. */
  async wrote(change: { abs: string; rel: string; before: SeenFile; after: string; tool: string; toolCallId: string }): Promise<void> {
    const { snapshots, journal } = this.deps;
    const afterBytes = Buffer.from(change.after, 'utf8');
    const [beforeHash, afterHash] = await Promise.all([
      change.before.bytes ? snapshots.put(change.before.bytes) : null,
      snapshots.put(afterBytes),
    ]);
    const entry = journal.note(change.abs, { runId: this.run.runId, agent: this.run.agent, tool: change.tool, afterHash });
    this.ledger.saw(change.abs, afterHash, entry.tick);
    const counts = lineCounts(change.before.bytes, afterBytes);
    const note = noteFor(change.before.bytes?.length ?? 0, afterBytes.length);
    this.run.emit({
      kind: 'file.changed',
      path: change.rel,
      beforeHash,
      afterHash,
      ...counts,
      toolCallId: change.toolCallId,
      attribution: 'exact',
      ...(note ? { note } : {}),
    });
  }

  /**
   * Runs a command and records what it changed in the workspace: `overlap` when another command
   * ran meanwhile (any run's), and a file another run's write_file or edit_file gave exactly its
   * present content meanwhile is that write's, not the command's. `ownWritesRecorded`: this run's
   * own writes meanwhile were recorded already (an external agent's turn, whose fs/write_text_file
   * goes through write_file), so a file it left as one of them wrote it is not counted again.
   */
  async command<T>(toolCallId: string, run: () => Promise<T>, options: { ownWritesRecorded?: boolean } = {}): Promise<T> {
    const { journal } = this.deps;
    const root = this.run.workspace.root;
    const watch = this.deps.watchFor(root);
    const since = journal.tick();
    const ended = journal.commandStarted(this.run.runId);
    let before: TreeState | undefined;
    try {
      before = await watch.before();
    } catch (error) {
      this.warnOnce(error);
    }
    try {
      return await run();
    } finally {
      let changes: TreeChange[] = [];
      try {
        if (before) changes = await watch.after(before);
      } catch (error) {
        this.warnOnce(error);
      }
      const { overlapped } = ended();
      const others = journal.writesSince(since, options.ownWritesRecorded ? '' : this.run.runId);
      for (const change of changes) {
        const abs = join(root, change.rel);
        const write = others.get(abs);
        if (write && write.afterHash === change.afterHash) continue;
        await this.recordCommandChange(abs, change, toolCallId, overlapped || write !== undefined);
      }
    }
  }

  private async recordCommandChange(abs: string, change: TreeChange, toolCallId: string, overlap: boolean): Promise<void> {
    const { snapshots, journal } = this.deps;
    // Its own later write_file is refused until it reads what its command wrote (writeGuard.ts).
    journal.note(abs, { runId: this.run.runId, agent: this.run.agent, tool: 'run_command', afterHash: change.afterHash });
    const [before, after] = await Promise.all([
      change.beforeHash ? snapshots.get(change.beforeHash) : null,
      change.afterHash ? snapshots.get(change.afterHash) : null,
    ]);
    const counts = lineCounts(before ?? null, after ?? null);
    const missing = (change.beforeHash && !before) || (change.afterHash && !after);
    const note = missing
      ? `larger than ${MAX_SNAPSHOT_BYTES / 1024 / 1024} MB: no snapshot was kept, so this change cannot be shown or reverted`
      : undefined;
    this.run.emit({
      kind: 'file.changed',
      path: change.rel,
      beforeHash: change.beforeHash,
      afterHash: change.afterHash,
      ...counts,
      toolCallId,
      attribution: overlap ? 'overlap' : 'exact',
      ...(note ? { note } : {}),
    });
  }

  private warnOnce(error: unknown): void {
    if (this.warned) return;
    this.warned = true;
    this.run.emit({
      kind: 'warning',
      message: `The files this run's commands change cannot be tracked here: ${errorText(error)}. Their changes are not listed and cannot be reverted.`,
    });
  }
}

function noteFor(beforeBytes: number, afterBytes: number): string | undefined {
  if (beforeBytes <= MAX_SNAPSHOT_BYTES && afterBytes <= MAX_SNAPSHOT_BYTES) return undefined;
  return `larger than ${MAX_SNAPSHOT_BYTES / 1024 / 1024} MB: no snapshot was kept, so this change cannot be shown or reverted`;
}
