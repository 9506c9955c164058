import type { ApprovalDecision } from '../../../shared/events';
import type { ApprovalRequest, Approver } from '../../ports';

/**
 * The Approver of a host that answers later, from elsewhere (the panel's Approve once / Deny
 * buttons): each request waits under its approvalId until `resolve` is called with that id, or its
 * run is aborted. An id answers once; a stale or unknown id is refused, never applied to another call.
 */
export class PendingApprovals implements Approver {
  private readonly pending = new Map<string, { request: ApprovalRequest; settle: (decision: ApprovalDecision) => void }>();

  request(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    return new Promise((resolve) => {
      if (signal.aborted) return resolve('denied');
      const settle = (decision: ApprovalDecision) => {
        this.pending.delete(request.approvalId);
        signal.removeEventListener('abort', onAbort);
        resolve(decision);
      };
      const onAbort = () => settle('denied');
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(request.approvalId, { request, settle });
    });
  }

  /** Answers a waiting request; false when nothing waits under that id (already answered, or its run ended). */
  resolve(approvalId: string, decision: ApprovalDecision): boolean {
    const entry = this.pending.get(approvalId);
    if (!entry) return false;
    entry.settle(decision);
    return true;
  }

  /** The requests still waiting, oldest first. */
  waiting(): ApprovalRequest[] {
    return [...this.pending.values()].map((p) => p.request);
  }
}
