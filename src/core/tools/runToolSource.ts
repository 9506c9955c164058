import type { EmitRunEvent } from '../runEvents';
import type { Profile } from '../config/profiles/profile';
import type { LauncherSettings } from '../access/sandbox/commandLauncher';
import type { ApprovalGate } from './approvalGate';
import type { AnyToolSpec } from './toolSpec';

/** What a source of tools from outside the engine knows about the run that asks. */
export interface RunToolSourceRequest {
  profile: Profile;
  /** The run's gate: approvals for these tools appear on its node. */
  gate: ApprovalGate;
  emit: EmitRunEvent;
  run: { runId: string; threadId: string; signal: AbortSignal };
  settings: LauncherSettings;
}

/**
 * Tools that come from outside the engine (MCP servers, the editor's tools): the host gives the
 * engine a list of these, and each run asks every one for the tools its profile may use. What
 * comes back goes through the same redaction, child filter, trust filter and allowlists as the
 * built-in tools (runTools.ts).
 */
export interface RunToolSource {
  toolsForRun(request: RunToolSourceRequest): Promise<AnyToolSpec[]>;
  /**
   * What it would offer a run of `profile`, in a few words ("MCP servers (github)"), for the note
   * on a run that cannot have it (a worktree run); undefined when nothing. Starts nothing.
   */
  describeFor?(profile: Profile): string | undefined;
}
