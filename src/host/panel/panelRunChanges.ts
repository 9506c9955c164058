import type { DiffSides, RecordedRevert, RunChangeActions } from '../../core/changes/attribution/runChangeActions';
import type { ApprovalRequest, Logger } from '../../core/ports';
import type { ApplyResult } from '../../core/changes/worktrees/applyWorktree';
import type { RunEvent } from '../../shared/events';
import type { HostToWebview, PendingWorktreeView, WebviewToHost } from '../../shared/protocol';
import { diffTitle } from './diffTitle';

/** What the panel's run changes need from the editor: a modal question and the diff editor. */
export interface RunChangesUi {
  confirm(message: string, detail: string, action: string): Promise<boolean>;
  /** Opens the diff of one file (before from its snapshot). */
  openDiff(sides: DiffSides, context: { threadId: string; runId: string; title: string }): Promise<void>;
  /** Opens the diff of an edit that waits for approval (its sides served from what waits). */
  openProposedDiff(approvalId: string, path: string, title: string): Promise<void>;
}

export type RunChangesMessage = Extract<
  WebviewToHost,
  { type: 'openChangeDiff' | 'revertRun' | 'applyWorktree' | 'discardWorktree' | 'openApprovalDiff' }
>;

const TYPES: ReadonlySet<string> = new Set(['openChangeDiff', 'revertRun', 'applyWorktree', 'discardWorktree', 'openApprovalDiff']);

/**
 * The panel's side of one run's changes: opening a changed file's diff, "Revert this run's
 * changes" (asking first about changes whose author is uncertain), and Apply to workspace /
 * Discard for a worktree run, each answered with a notice and a fresh list of the worktree runs
 * that wait (also sent when the panel loads and when a run ends). Knows no vscode: the editor is
 * behind RunChangesUi.
 */
export class PanelRunChanges {
  private post: ((message: HostToWebview) => void) | undefined;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly deps: {
      actions: RunChangeActions;
      ui: RunChangesUi;
      engine: { onEvent(listener: (event: RunEvent) => void): () => void };
      logger: Logger;
      /** The edits that wait for approval, with their whole sides (the engine's approver). */
      approvals?: { waiting(): ApprovalRequest[] };
    },
  ) {
    // A worktree run's changes wait once it has ended.
    this.unsubscribe = deps.engine.onEvent((e) => {
      if (e.kind === 'run.finished') void this.refresh();
    });
  }

  static handles(message: WebviewToHost): message is RunChangesMessage {
    return TYPES.has(message.type);
  }

  attach(post: (message: HostToWebview) => void): void {
    this.post = post;
  }

  detach(): void {
    this.post = undefined;
  }

  dispose(): void {
    this.unsubscribe();
  }

  /** `shownThreadId`: the conversation the panel showed when asked; the answer's notice belongs to it (shown only there). */
  async handle(message: RunChangesMessage, shownThreadId?: string): Promise<void> {
    const notice = (text: string) => this.notice(text, shownThreadId);
    try {
      switch (message.type) {
        case 'openChangeDiff': {
          const sides = await this.deps.actions.diffSides(message.threadId, message.runId, message.path);
          const title = diffTitle(message.path, { kind: 'run', agent: sides.agent, changedSince: sides.changedSince });
          return await this.deps.ui.openDiff(sides, { threadId: message.threadId, runId: message.runId, title });
        }
        case 'openApprovalDiff': {
          const change = this.deps.approvals?.waiting().find((a) => a.approvalId === message.approvalId)?.change;
          if (!change) throw new Error('That edit no longer waits for approval: it was answered, or its run ended.');
          const title = diffTitle(change.path, { kind: 'proposed edit' });
          return await this.deps.ui.openProposedDiff(message.approvalId, change.path, title);
        }
        case 'revertRun':
          return notice(revertText(await this.revert(message.threadId, message.runId)));
        case 'applyWorktree':
          return notice(applyText(message.runId, await this.deps.actions.apply(message.runId)));
        case 'discardWorktree': {
          const ok = await this.deps.ui.confirm(
            `Discard the changes of run ${message.runId}?`,
            'Its worktree and its branch are deleted. The workspace is not touched.',
            'Discard',
          );
          if (!ok) return;
          const gone = await this.deps.actions.discard(message.runId);
          return notice(`Discarded the changes of run ${message.runId}: its worktree and branch ${gone.branch} are gone.`);
        }
      }
    } finally {
      // Every answer redraws the buttons (they stay disabled until then).
      await this.refresh();
    }
  }

  /** Sends the threads whose runs lost revert, then the worktree runs that wait for Apply or Discard. */
  async refresh(): Promise<void> {
    if (!this.post) return;
    let items: PendingWorktreeView[] = [];
    try {
      items = (await this.deps.actions.pending()).map((m) => ({
        runId: m.runId,
        branch: m.branch,
        files: m.files?.length ?? 0,
        added: m.files?.reduce((n, f) => n + f.added, 0) ?? 0,
        removed: m.files?.reduce((n, f) => n + f.removed, 0) ?? 0,
      }));
    } catch (error) {
      this.deps.logger.warn(`Could not list the worktree runs: ${error instanceof Error ? error.message : String(error)}`);
    }
    let lost: Record<string, string> = {};
    try {
      lost = await this.deps.actions.revertUnavailable();
    } catch (error) {
      this.deps.logger.warn(`Could not read which threads lost their snapshots: ${error instanceof Error ? error.message : String(error)}`);
    }
    this.post?.({ type: 'revertUnavailable', threads: lost });
    this.post?.({ type: 'worktrees', items });
  }

  private revert(threadId: string, runId: string): Promise<RecordedRevert> {
    return this.deps.actions.revert(threadId, runId, {
      confirmOverlap: (paths) =>
        this.deps.ui.confirm(
          `Revert ${paths.length === 1 ? 'a change' : `${paths.length} changes`} this run may not have made?`,
          `Another command ran at the same time, so these may be another run's: ${paths.join(', ')}. Reverting them could undo that run's work.`,
          'Revert them too',
        ),
    });
  }

  private notice(message: string, threadId: string | undefined): void {
    this.post?.({ type: 'notice', level: 'info', message, ...(threadId ? { threadId } : {}) });
  }
}

function revertText(result: RecordedRevert): string {
  const parts: string[] = [];
  const unrecorded = result.unrecorded
    ? ` (This could not be written to the conversation, so its run will not read "reverted": ${result.unrecorded}.)`
    : '';
  if (result.reverted.length) parts.push(`Reverted ${result.reverted.join(', ')}.`);
  if (result.skipped.length) parts.push(`Left as they are: ${result.skipped.map((s) => `${s.path} (${s.reason})`).join('; ')}.`);
  const already = result.alreadyReverted ?? [];
  if (already.length && parts.length === 0)
    return `Nothing to undo: this run's changes are already reverted (${already.join(', ')} ${already.length === 1 ? 'is' : 'are'} as before the run).${unrecorded}`;
  if (already.length) parts.push(`Already as before the run: ${already.join(', ')}.`);
  return (parts.join(' ') || 'This run changed no files.') + unrecorded;
}

function applyText(runId: string, result: ApplyResult & { keptBranch?: string }): string {
  const parts: string[] = [];
  if (result.applied.length) parts.push(`Applied the changes of run ${runId}: ${result.applied.join(', ')}.`);
  if (result.conflicts.length) parts.push(`Conflicts: ${result.conflicts.map((c) => `${c.path} (${c.reason})`).join('; ')}.`);
  if (result.keptBranch) parts.push(`The run's version stays on branch ${result.keptBranch}.`);
  return parts.join(' ') || `Run ${runId} had nothing left to apply.`;
}
