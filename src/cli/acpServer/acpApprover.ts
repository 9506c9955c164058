import { isAbsolute, join } from 'node:path';
import type { PermissionOption, RequestPermissionRequest, RequestPermissionResponse, ToolCallContent } from '@agentclientprotocol/sdk';
import type { ApprovalRequest, Approver } from '../../core/ports';
import { toolCallView } from './toolCallView';

/** How the approver reaches the client: session/request_permission, given up when `signal` aborts. */
export type AskClient = (request: RequestPermissionRequest, signal: AbortSignal) => Promise<RequestPermissionResponse>;

const OPTIONS: PermissionOption[] = [
  { optionId: 'allow_once', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'allow_always', name: 'Always allow this (this session)', kind: 'allow_always' },
  { optionId: 'reject_once', name: 'Reject', kind: 'reject_once' },
];

/** What "always" covers: the same tool on the same command line or file, never more. */
function alwaysKey(request: ApprovalRequest): string {
  const input = (typeof request.input === 'object' && request.input !== null ? request.input : {}) as Record<string, unknown>;
  const what =
    typeof input.command === 'string' ? input.command : typeof input.path === 'string' ? input.path : JSON.stringify(request.input);
  return `${request.tool}\u0000${what}`;
}

/**
 * The engine's approvals as ACP permission requests to the client (Zed's Allow / Reject). The
 * policy has already decided that a person must answer (the approval mode, the command allowlist,
 * protected files); this only asks. "Allow once" approves; "Always allow" approves and, for the
 * rest of this session, approves the same tool on the same command line or file unasked (our
 * allowlist, --allow-command, is where wider "always" lives); "Reject", or the client cancelling
 * the request, denies. A run stopped while it waits withdraws the question ($/cancel_request).
 * The edit's diff is sent whole, as the editor's diff shows it: the person approves what is written.
 */
export function acpApprover(sessionId: string, root: string, ask: AskClient, redact: (text: string) => string): Approver {
  const always = new Set<string>();
  return {
    canAsk: () => true,
    allowCommandHint: (prefix) => `start "subagents acp" with --allow-command ${JSON.stringify(prefix)}`,
    async request(request, signal) {
      const key = alwaysKey(request);
      if (always.has(key)) return 'approved';
      const view = toolCallView(request.tool, request.input, root, request.agent === 'supervisor' ? undefined : request.agent);
      const diff: ToolCallContent[] = request.change
        ? [
            {
              type: 'diff',
              path: isAbsolute(request.change.path) ? request.change.path : join(root, request.change.path),
              oldText: request.change.before,
              newText: request.change.after,
            },
          ]
        : [];
      const reason: ToolCallContent = { type: 'content', content: { type: 'text', text: redact(request.reason) } };
      let answer: RequestPermissionResponse;
      try {
        answer = await ask(
          {
            sessionId,
            toolCall: {
              toolCallId: `${request.runId}/${request.toolCallId}`,
              ...view,
              // Its arguments went out redacted with its tool_call; the title, made from them, is redacted here.
              title: redact(view.title),
              status: 'pending',
              content: [reason, ...diff],
            },
            options: OPTIONS,
          },
          signal,
        );
      } catch {
        // The client failed the request or went away: nobody said yes.
        return 'denied';
      }
      if (signal.aborted || answer.outcome.outcome !== 'selected') return 'denied';
      if (answer.outcome.optionId === 'allow_always') always.add(key);
      return answer.outcome.optionId === 'allow_once' || answer.outcome.optionId === 'allow_always' ? 'approved' : 'denied';
    },
  };
}
