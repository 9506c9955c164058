import type { RunFiles } from '../../changes/attribution/runFiles';
import type { Workspace } from '../../ports';
import type { CommandLauncher } from '../../access/sandbox/commandLauncher';
import type { ApprovalGate } from '../approvalGate';

/** What every built-in workspace tool works with; built once per run. */
export interface WorkspaceToolDeps {
  workspace: Workspace;
  /** The calling run's gate: approvals appear on that run's node. */
  gate: ApprovalGate;
  /** The calling agent's name, for the host to say who runs a command. */
  agent: string;
  /** How commands start: in the OS sandbox where there is one, without the product's keys. */
  commands: CommandLauncher;
  /** `subagents.trustedDomains`: hosts web_fetch reaches unasked (user settings or --trusted-domain only). */
  trustedDomains?: readonly string[];
  /** The run's change tracking: what it read, the conflict guard, and the file.changed events of its writes and commands. */
  files: RunFiles;
}

/** A tool's answer when it did nothing: a sentence the model can act on. */
export interface ToolError {
  error: string;
}

/** Files larger than this are not read whole into a model's context (or memory). */
export const MAX_READ_BYTES = 10 * 1024 * 1024;

/** A file with a NUL byte in its first 8 KB is treated as binary, as git does. */
export function looksBinary(text: string): boolean {
  return text.slice(0, 8192).includes('\u0000');
}
