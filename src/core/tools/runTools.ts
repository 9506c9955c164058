import { capErrorText } from '../../shared/errorText';
import type { EmitRunEvent } from '../agent/runEvents';
import type { EngineSettings } from '../engineSettings';
import type { Approver, Workspace } from '../ports';
import type { Profile } from '../profiles/profile';
import { mcpToolsForRun } from '../mcp/runMcpTools';
import type { McpHub } from '../mcp/mcpHub';
import { commandLauncher } from '../sandbox/commandLauncher';
import type { Redactor } from '../secrets/redactor';
import { createApprovalGate } from './approvalGate';
import { selectRunTools, type RunToolSelection } from './selectRunTools';
import type { AnyToolSpec } from './toolSpec';
import { workspaceTools } from './workspaceTools';

export interface RunToolsRequest {
  workspace: Workspace;
  approver: Approver | undefined;
  settings: EngineSettings;
  profile: Profile;
  depth: number;
  /** The run's emitter: its approval requests appear on its own node. */
  emit: EmitRunEvent;
  /** The delegation tools this run may use (none at the depth limit). */
  delegation: readonly AnyToolSpec[];
  /** Known secrets are taken out of every tool result before the model (or anyone) reads it. */
  redactor: Redactor;
  /** The run itself: MCP server approvals are asked in its name, and stop with it. */
  run: { runId: string; threadId: string; signal: AbortSignal };
  /** The window's or CLI process's MCP servers; none without it. */
  mcp?: McpHub | undefined;
}

/** The tools of one run: workspace tools with this run's approval gate, plus delegation and MCP tools, filtered. */
export async function runTools(request: RunToolsRequest): Promise<RunToolSelection> {
  const { workspace, settings, profile } = request;
  const gate = createApprovalGate({
    settings: { mode: settings.approval, root: workspace.root, autoApproveCommands: settings.autoApproveCommands },
    approver: request.approver,
    emit: request.emit,
    agent: profile.name,
  });
  const commands = commandLauncher(workspace.root, settings, (message) => request.emit({ kind: 'warning', message, code: 'sandbox' }));
  const mcp = request.mcp ? await mcpToolsForRun({ hub: request.mcp, profile, gate, emit: request.emit, run: request.run, settings }) : [];
  const all = [...workspaceTools({ workspace, gate, agent: profile.name, commands, trustedDomains: settings.trustedDomains }), ...request.delegation, ...mcp].map((spec) => redactingTool(spec, request.redactor));
  return selectRunTools(all, { depth: request.depth, trusted: workspace.trusted, allow: profile.tools, deny: profile.disallowedTools });
}

/**
 * The tool with its result redacted (what a command printed or a file held reaches the model
 * without the keys) and its error text capped (errorText.ts).
 */
function redactingTool(spec: AnyToolSpec, redactor: Redactor): AnyToolSpec {
  return {
    ...spec,
    execute: async (input, context) => {
      try {
        const result = redactor.redactValue(await spec.execute(input, context));
        return isErrorResult(result) ? { ...result, error: capErrorText(result.error) } : result;
      } catch (error) {
        // A thrown error's message reaches the model too.
        if (error instanceof Error) error.message = capErrorText(redactor.redactText(error.message));
        throw error;
      }
    },
  };
}

function isErrorResult(value: unknown): value is { error: string } {
  return typeof value === 'object' && value !== null && 'error' in value && typeof value.error === 'string';
}
