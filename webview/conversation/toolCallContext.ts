import type { ApprovalDecision } from '../../src/shared/events';
import type { UiState } from '../uiState';

/** What a tool call's view (and the approval inside it) needs from the panel; its own file so the two views import it without importing each other. */
export interface ToolCallContext {
  ui: UiState;
  resolveApproval(approvalId: string, decision: ApprovalDecision): void;
  alwaysAllow(approvalId: string, prefix: string): void;
  /** Opens an edit's proposed change in the editor's diff view. */
  openApprovalDiff(approvalId: string): void;
  /** An approval was answered from `from`: the keyboard moves on (the next waiting approval, else the prompt box). */
  focusAfterApproval(from: HTMLElement): void;
}
