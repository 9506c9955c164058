import type { ApprovalDecision } from '../../shared/events';
import { approvalAction, approvalNotice } from '../../shared/approvalText';
import type { WindowActivity, WaitingApproval } from './windowActivity';

export const APPROVE = 'Approve once';
export const DENY = 'Deny';
export const SHOW = 'Show';

export interface ApprovalPromptDeps {
  activity: WindowActivity;
  /** The panel is on screen. */
  panelVisible(): boolean;
  /** The panel is on screen and shows this conversation (a top-level thread id). */
  panelShows(rootThreadId: string): boolean;
  /** A notification with buttons; resolves with the one chosen, or undefined when it is dismissed. */
  notify(message: string, buttons: readonly string[]): Thenable<string | undefined>;
  /** The engine's approver: false when nothing waits under that id any more. */
  resolve(approvalId: string, decision: ApprovalDecision): boolean;
  /** Opens the panel at that conversation. */
  show(rootThreadId: string): Promise<void>;
  /** The view's badge: 0 takes it away. */
  setBadge(count: number, tooltip: string): void;
  /** Says something went wrong, where the user looks (a warning notification). */
  warn(message: string): void;
}

/**
 * Approvals the user cannot see: while the panel is hidden (or shows another conversation), a
 * request is a notification with Approve once / Deny / Show, bound to that request's id as the
 * panel's buttons are (a stale id is refused, never applied to another call), and the view carries
 * a badge with the count of what waits.
 */
export class ApprovalPrompts {
  private readonly unsubscribe: () => void;
  /** Requests a notification was shown for: each is asked there once. */
  private readonly asked = new Set<string>();

  constructor(private readonly deps: ApprovalPromptDeps) {
    this.unsubscribe = deps.activity.onChange(() => this.panelChanged());
  }

  /**
   * What waits or what the panel shows changed: the badge counts only what the user cannot see,
   * and a request the panel does not show (it was hidden, or shows another conversation) becomes a
   * notification, once.
   */
  panelChanged(): void {
    const waiting = this.deps.activity.snapshot().approvals;
    for (const id of this.asked) if (!waiting.some((a) => a.approvalId === id)) this.asked.delete(id);
    for (const approval of waiting) {
      if (this.asked.has(approval.approvalId) || this.deps.panelShows(approval.rootThreadId)) continue;
      this.asked.add(approval.approvalId);
      void this.prompt(approval);
    }
    if (this.deps.panelVisible() || waiting.length === 0) return this.deps.setBadge(0, '');
    const first = waiting[0]!;
    this.deps.setBadge(
      waiting.length,
      `${waiting.length === 1 ? 'An approval is' : `${waiting.length} approvals are`} waiting: ${first.agent} wants to ${approvalAction(first)}`,
    );
  }

  dispose(): void {
    this.unsubscribe();
  }

  private async prompt(approval: WaitingApproval): Promise<void> {
    const choice = await this.deps.notify(approvalNotice(approval), [APPROVE, DENY, SHOW]);
    if (choice === SHOW) return this.deps.show(approval.rootThreadId);
    if (choice !== APPROVE && choice !== DENY) return;
    // Answered in the panel meanwhile, or its run ended: the id is stale, and says so.
    if (!this.deps.resolve(approval.approvalId, choice === APPROVE ? 'approved' : 'denied')) {
      this.deps.warn(`That approval is no longer waiting: ${approval.agent}'s run has already moved on.`);
    }
  }
}
