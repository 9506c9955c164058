import type { ApprovalNeed } from '../../access/approvals/approvalPolicy';
import type { ApprovalGate } from '../../tools/approvalGate';
import { resolveWorkspacePath } from '../../access/paths/workspacePath';
import type { RequestPermissionRequest, RequestPermissionResponse } from './acpTypes';
import { ACP_TOOL_PREFIX } from './acpUpdates';
import type { RunIds } from './acpFiles';

/**
 * session/request_permission through the run's approval gate, as our own tools ask: the approval
 * mode, the command allowlist and judge, protected files, the node's Approve / Deny (only this child
 * waits). An approval picks the agent's "allow once" option (we remember nothing for it: our own
 * allowlist is where "always" lives); a denial its "reject once"; after a stop, `cancelled`.
 */
export async function answerPermission(
  request: RequestPermissionRequest,
  gate: ApprovalGate,
  root: string,
  run: RunIds,
  signal: AbortSignal,
): Promise<RequestPermissionResponse> {
  if (signal.aborted) return { outcome: { outcome: 'cancelled' } };
  const call = request.toolCall;
  const kind = call.kind ?? 'other';
  const title = call.title ?? kind;
  const needs = await needsOf(kind, title, call.rawInput, call.locations ?? [], root);
  const option = (wanted: readonly string[]) => request.options.find((o) => wanted.includes(o.kind))?.optionId;
  const reject = () => {
    const id = option(['reject_once', 'reject_always']);
    return id ? { outcome: { outcome: 'selected' as const, optionId: id } } : { outcome: { outcome: 'cancelled' as const } };
  };
  if ('refused' in needs) return reject();
  const input = {
    title,
    kind,
    ...(call.locations?.length ? { locations: call.locations } : {}),
    ...(call.rawInput === undefined ? {} : { rawInput: call.rawInput }),
  };
  const context = { runId: run.runId, threadId: run.threadId, toolCallId: `acp_${call.toolCallId}`, signal };
  for (const need of needs.list) {
    const verdict = await gate.check(`${ACP_TOOL_PREFIX}${kind}`, need, input, context);
    if (signal.aborted) return { outcome: { outcome: 'cancelled' } };
    if (!verdict.ok) return reject();
  }
  const allow = option(['allow_once', 'allow_always']);
  return allow ? { outcome: { outcome: 'selected', optionId: allow } } : reject();
}

/** What a permission request asks for, in our policy's terms; a path outside the workspace is refused outright. */
async function needsOf(
  kind: string,
  title: string,
  rawInput: unknown,
  locations: readonly { path: string }[],
  root: string,
): Promise<{ list: ApprovalNeed[] } | { refused: string }> {
  const paths: string[] = [];
  for (const { path } of locations) {
    const where = await resolveWorkspacePath(root, path);
    if (!where.ok) return { refused: where.error };
    paths.push(where.rel);
  }
  switch (kind) {
    case 'read':
    case 'search':
      return { list: paths.map((path) => ({ kind: 'read', path })) };
    case 'edit':
    case 'delete':
    case 'move':
      // An edit that names no file is asked about as a change we cannot see.
      return paths.length
        ? { list: paths.map((path) => ({ kind: 'edit', path })) }
        : { list: [{ kind: 'workspaceCode', reason: `${title} (the agent names no file).` }] };
    case 'execute': {
      const command = commandOf(rawInput) ?? title;
      return { list: [{ kind: 'command', command }] };
    }
    default:
      return { list: [{ kind: 'external', reason: `The external agent asks to: ${title}.` }] };
  }
}

function commandOf(rawInput: unknown): string | undefined {
  if (typeof rawInput !== 'object' || rawInput === null) return undefined;
  const command = (rawInput as Record<string, unknown>)['command'];
  if (typeof command === 'string') return command;
  if (Array.isArray(command) && command.every((c) => typeof c === 'string')) return command.join(' ');
  return undefined;
}
