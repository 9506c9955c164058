import { approvalAction } from '../../shared/approvalText';
import type { ChangePreview, RunEvent } from '../../shared/events';

/** An approval that waits for the user, as the status bar, the badge and a notification say it. */
export interface WaitingApproval {
  approvalId: string;
  threadId: string;
  /** The top-level thread (the conversation) it belongs to. */
  rootThreadId: string;
  runId: string;
  agent: string;
  tool: string;
  input: unknown;
  reason?: string;
  /** For an edit: its diff's counts, for the notification's one line. */
  preview?: Pick<ChangePreview, 'added' | 'removed' | 'created'>;
}

export interface ActivitySnapshot {
  /** Runs working now, at every depth, in every thread of this window. */
  runs: number;
  /** Oldest first. */
  approvals: WaitingApproval[];
}

/**
 * What works and what waits in this window, folded from the engine's events: the runs that have
 * started and not finished, and the approvals asked for and not answered (a run's end expires its
 * own). Knows no vscode: the status bar, the view's badge and the notifications read it.
 */
export class WindowActivity {
  private readonly runs = new Map<string, string>();
  /** Child thread -> the thread of the run that started it. */
  private readonly parents = new Map<string, string>();
  private readonly approvals = new Map<string, WaitingApproval>();
  private readonly listeners = new Set<(snapshot: ActivitySnapshot, change: RunEvent) => void>();

  /** Feed it every engine event. */
  note(event: RunEvent): void {
    switch (event.kind) {
      case 'run.started':
        this.runs.set(event.runId, event.agent);
        if (event.parentThreadId) this.parents.set(event.threadId, event.parentThreadId);
        break;
      case 'run.finished':
        this.runs.delete(event.runId);
        for (const [id, a] of this.approvals) if (a.runId === event.runId) this.approvals.delete(id);
        break;
      case 'approval.requested':
        this.approvals.set(event.approvalId, {
          approvalId: event.approvalId,
          threadId: event.threadId,
          rootThreadId: this.rootOf(event.threadId),
          runId: event.runId,
          agent: this.runs.get(event.runId) ?? 'an agent',
          tool: event.tool,
          input: event.input,
          ...(event.reason === undefined ? {} : { reason: event.reason }),
          ...(event.preview === undefined ? {} : { preview: previewCounts(event.preview) }),
        });
        break;
      case 'approval.resolved':
        this.approvals.delete(event.approvalId);
        break;
      default:
        return;
    }
    const snapshot = this.snapshot();
    for (const listener of this.listeners) listener(snapshot, event);
  }

  /** The conversation a thread belongs to, as far as this window has seen its runs start. */
  rootOf(threadId: string): string {
    let id = threadId;
    for (let hops = 0; hops < 64; hops++) {
      const parent = this.parents.get(id);
      if (!parent) break;
      id = parent;
    }
    return id;
  }

  snapshot(): ActivitySnapshot {
    return { runs: this.runs.size, approvals: [...this.approvals.values()] };
  }

  isWaiting(approvalId: string): boolean {
    return this.approvals.has(approvalId);
  }

  /** Called after each change of runs or approvals, with the event that made it. */
  onChange(listener: (snapshot: ActivitySnapshot, change: RunEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

function previewCounts(preview: ChangePreview): WaitingApproval['preview'] {
  return { added: preview.added, removed: preview.removed, ...(preview.created ? { created: true } : {}) };
}

/** The status bar item: hidden while nothing works or waits; a waiting approval comes first. */
export function activityStatus(
  snapshot: ActivitySnapshot,
): { text: string; tooltip: string; warning: boolean; threadId?: string } | undefined {
  const { runs, approvals } = snapshot;
  if (runs === 0 && approvals.length === 0) return undefined;
  const working = `${runs} run${runs === 1 ? '' : 's'} working`;
  if (approvals.length > 0) {
    const first = approvals[0]!;
    const more = approvals.length > 1 ? ` (and ${approvals.length - 1} more)` : '';
    return {
      text: `$(bell-dot) ${approvals.length === 1 ? 'Approval waiting' : `${approvals.length} approvals waiting`}`,
      tooltip: `Subagents: ${first.agent} wants to ${approvalAction(first)}${more}; ${working}. Click to open the panel.`,
      warning: true,
      // A click opens the conversation that waits, wherever the panel is.
      threadId: first.rootThreadId,
    };
  }
  return {
    text: `$(sync~spin) ${runs === 1 ? '1 run' : `${runs} runs`}`,
    tooltip: `Subagents: ${working}. Click to open the panel.`,
    warning: false,
  };
}
