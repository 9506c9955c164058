import type { ToolCallNode } from './runTree';

/**
 * How a call's approval ended when it was not given, in the user's words: "denied by you" only when
 * the user said no; "cancelled (stopped)" or "cancelled (window reloaded)" when no one answered.
 * Undefined when the call was approved or never asked. What the model was told (the denial
 * sentence with its advice) is never shown as the user's words.
 */
export function approvalEnd(call: ToolCallNode): string | undefined {
  const approval = call.approval;
  if (!approval || approval.decision === undefined || approval.decision === 'approved') return undefined;
  if (approval.cancelled === 'stopped') return 'cancelled (stopped)';
  if (approval.cancelled === 'reloaded') return 'cancelled (window reloaded)';
  if (approval.decision === 'denied') return 'denied by you';
  return 'not answered: the run ended first';
}
