import type { ApprovalMode } from '../engineSettings';
import { judgeCommand, type CommandVerdict } from '../commands/judgeCommand';
import { protectedReason } from './protectedPaths';

/** What a tool is about to do that may need the user's approval. */
export type ApprovalNeed =
  /** Create or change a file; `path` is workspace-relative and already resolved. */
  | { kind: 'edit'; path: string }
  /** `sandboxed`: it will run in the OS sandbox, which holds what the judge cannot see. */
  | { kind: 'command'; command: string; sandboxed?: boolean }
  /** Install a package or an extension, described for the user. */
  | { kind: 'install'; what: string };

export interface ApprovalSettings {
  mode: ApprovalMode;
  root: string;
  autoApproveCommands: readonly string[];
}

/**
 * DESIGN section 5 as a function: whether this action asks the user, and why. Protected files
 * ask in every mode; autoEdit approves other edits inside the workspace; commands are judged part
 * by part; installs ask unless the user chose trust.
 */
export async function decideApproval(need: ApprovalNeed, settings: ApprovalSettings): Promise<CommandVerdict> {
  switch (need.kind) {
    case 'edit': {
      const guarded = protectedReason(need.path);
      if (guarded) return { ask: true, reason: `Protected file: ${guarded}.` };
      return settings.mode === 'ask' ? { ask: true, reason: `Writes ${need.path}.` } : { ask: false };
    }
    case 'command':
      return judgeCommand(need.command, { mode: settings.mode, root: settings.root, autoApprove: settings.autoApproveCommands, sandboxed: need.sandboxed ?? false });
    case 'install':
      return settings.mode === 'trust' ? { ask: false } : { ask: true, reason: `Installs ${need.what}.` };
  }
}
