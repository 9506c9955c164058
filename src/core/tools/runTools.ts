import { capErrorText } from '../../shared/errorText';
import type { EmitRunEvent } from '../runEvents';
import type { FileChanges } from '../changes/attribution/fileChanges';
import type { EngineSettings } from '../config/settings/engineSettings';
import type { Approver, Workspace } from '../ports';
import type { Profile } from '../config/profiles/profile';
import { commandLauncher, type CommandLauncher } from '../access/sandbox/commandLauncher';
import type { Redactor } from '../access/secrets/redactor';
import { createApprovalGate, type ApprovalGate } from './approvalGate';
import type { RunToolSource } from './runToolSource';
import { selectRunTools, type RunToolSelection } from './selectRunTools';
import type { AnyToolSpec } from './toolSpec';
import { workspaceTools } from './workspaceTools';
import type { HookRunner, HookScene } from '../access/hooks/hookRunner';
import { hookedTool } from './hooks/hookedTool';
import { loadSkillTool } from './builtin/loadSkill';
import type { Skill } from '../config/skills/skill';

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
  /** The run itself: MCP server approvals are asked in its name, and stop with it; its file changes are recorded in its name. */
  run: { runId: string; threadId: string; signal: AbortSignal };
  /** Tools from outside the engine (the MCP servers, the editor's tools); none without them. */
  toolSources?: readonly RunToolSource[] | undefined;
  /** The engine's change tracking (src/core/changes/attribution/). */
  changes: FileChanges;
  /**
   * A run confined to a worktree: its commands may also write the worktree's git paths; tools
   * that cannot be confined to it (MCP servers, other extensions' editor tools) are not offered.
   */
  isolation?: { root: string; writable: readonly string[]; readyAt: number } | undefined;
  /** The engine's folders its commands may not write, wherever they lie (the thread storage, the worktrees root). */
  readOnlyToCommands?: readonly string[] | undefined;
  /** PreToolUse and PostToolUse hooks around every tool of the run (tools/hooks/hookedTool.ts). */
  hooks?: { runner: HookRunner; scene: HookScene; stopRun(reason: string): void } | undefined;
  /** The skills every agent may load (load_skill is offered only when there are some). */
  skills?: readonly Skill[] | undefined;
  /** The run's command launcher, when the run made it already (its hooks use it too): runCommandLauncher. */
  commands?: CommandLauncher | undefined;
}

/** The launcher of one run's commands (and of its hooks that run in the sandbox): its workspace, its writable git paths, the engine's read-only folders. */
export function runCommandLauncher(
  request: Pick<RunToolsRequest, 'workspace' | 'settings' | 'emit' | 'isolation' | 'readOnlyToCommands'>,
): CommandLauncher {
  return commandLauncher(
    request.workspace.root,
    request.settings,
    (message) => request.emit({ kind: 'warning', message, code: 'sandbox' }),
    {
      alsoWritable: request.isolation?.writable ?? [],
      readOnly: request.readOnlyToCommands ?? [],
    },
  );
}

/** The tools of one run: workspace tools with this run's approval gate, plus delegation and outside tools, filtered. */
export async function runTools(request: RunToolsRequest): Promise<RunToolSelection> {
  const { workspace, settings, profile } = request;
  const gate = createApprovalGate({
    settings: {
      mode: settings.approval,
      root: workspace.root,
      autoApproveCommands: settings.autoApproveCommands,
      allowCommandHint: request.approver?.allowCommandHint?.bind(request.approver),
    },
    approver: request.approver,
    emit: request.emit,
    agent: profile.name,
  });
  const commands = request.commands ?? runCommandLauncher(request);
  const outside = await outsideTools(request, gate);
  const files = request.changes.forRun({
    runId: request.run.runId,
    agent: profile.name,
    workspace,
    emit: request.emit,
    settledAt: request.isolation?.readyAt,
  });
  const own = [
    ...workspaceTools({ workspace, gate, agent: profile.name, commands, trustedDomains: settings.trustedDomains, files }),
    ...(request.skills?.some((s) => !s.hidden) ? [loadSkillTool(request.skills, workspace.root)] : []),
    ...request.delegation,
  ];
  const hooks = request.hooks;
  // Hooks see the redacted result (tool_response), and their words to the model are redacted too.
  const all = firstOfEachName([...own, ...outside.flat()], request.emit)
    .map((spec) => redactingTool(spec, request.redactor))
    .map((spec) => (hooks ? hookedTool(spec, { ...hooks, gate, redactor: request.redactor }) : spec));
  return selectRunTools(all, { depth: request.depth, trusted: workspace.trusted, allow: profile.tools, deny: profile.disallowedTools });
}

/** A tool from outside that takes a name already in use (a built-in's, another source's) is left out, and said. */
function firstOfEachName(specs: readonly AnyToolSpec[], emit: EmitRunEvent): AnyToolSpec[] {
  const seen = new Set<string>();
  return specs.filter((spec) => {
    if (!seen.has(spec.name)) return seen.add(spec.name);
    emit({
      kind: 'warning',
      code: 'tools',
      message: `Two tools are named "${spec.name}": this run uses the first (the built-in one, or the source listed first) and leaves the other out.`,
    });
    return false;
  });
}

/**
 * The tools of the host's sources (MCP servers, the editor's tools). A run confined to a worktree
 * gets none: they act outside the worktree (their own processes, files and services), where its
 * changes could not be kept apart; its node says which it goes without.
 */
async function outsideTools(request: RunToolsRequest, gate: ApprovalGate): Promise<AnyToolSpec[]> {
  const sources = request.toolSources ?? [];
  if (request.isolation) {
    const withheld = sources.map((source) => source.describeFor?.(request.profile)).filter((d): d is string => d !== undefined);
    if (withheld.length > 0) {
      request.emit({
        kind: 'warning',
        code: 'tools',
        message: `This run works in its own git worktree, so the tools of ${withheld.join(' and ')} are not offered to it: they act outside the worktree, where its changes could not be kept apart.`,
      });
    }
    return [];
  }
  const { profile, settings } = request;
  return (
    await Promise.all(sources.map((source) => source.toolsForRun({ profile, gate, emit: request.emit, run: request.run, settings })))
  ).flat();
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
