import type { ApprovalMode } from '../../config/settings/engineSettings';
import { secretFileReason } from '../secrets/secretFiles';
import { judgeCommand, type CommandVerdict } from '../commands/judgeCommand';
import { protectedReason } from '../paths/protectedPaths';

/** What a tool is about to do that may need the user's approval. */
export type ApprovalNeed =
  /** Read a file; `path` is workspace-relative and already resolved. Asks only for files that may hold secrets. */
  | { kind: 'read'; path: string }
  /**
   * Create or change a file; `path` is workspace-relative and already resolved. `change`: the
   * content before (null for a new file) and after, for the diff its approval shows.
   */
  | { kind: 'edit'; path: string; change?: { before: string | null; after: string } }
  /** `sandboxed`: it will run in the OS sandbox, which holds what the judge cannot see. */
  | { kind: 'command'; command: string; sandboxed?: boolean }
  /** Install a package or an extension, described for the user. */
  | { kind: 'install'; what: string }
  /** Use a tool of another program that may change things (an MCP server's): asks unless the user chose trust. */
  | { kind: 'external'; reason: string }
  /** Start a program the workspace declared (an MCP server): asks in every mode, as protected files do. */
  | { kind: 'workspaceCode'; reason: string }
  /** Fetch from the network: asks unless the host is one of the user's trusted domains or the user chose trust. */
  | { kind: 'network'; url: string; trustedHost: boolean };

export interface ApprovalSettings {
  mode: ApprovalMode;
  root: string;
  autoApproveCommands: readonly string[];
  /** How this host's user lets a command prefix run unasked, for refusals (the CLI: its flag). */
  allowCommandHint?: ((prefix: string) => string) | undefined;
}

/**
 * The approval rules as a function: whether this action asks the user, and why. Reading a file
 * that may hold secrets asks unless the user chose trust; protected files ask in every mode;
 * autoEdit approves other edits inside the workspace; commands are judged part by part; installs
 * ask unless the user chose trust.
 */
export async function decideApproval(need: ApprovalNeed, settings: ApprovalSettings): Promise<CommandVerdict> {
  switch (need.kind) {
    case 'read':
      return decideRead(need.path, settings.mode);
    case 'edit': {
      const guarded = protectedReason(need.path);
      if (guarded) return { ask: true, reason: `Protected file: ${guarded}.` };
      return settings.mode === 'ask' ? { ask: true, reason: `Writes ${need.path}.` } : { ask: false };
    }
    case 'command':
      return judgeCommand(need.command, {
        mode: settings.mode,
        root: settings.root,
        autoApprove: settings.autoApproveCommands,
        sandboxed: need.sandboxed ?? false,
        allowHint: settings.allowCommandHint,
      });
    case 'install':
      return settings.mode === 'trust' ? { ask: false } : { ask: true, reason: `Installs ${need.what}.` };
    case 'external':
      return settings.mode === 'trust' ? { ask: false } : { ask: true, reason: need.reason };
    case 'workspaceCode':
      return { ask: true, reason: need.reason };
    case 'network':
      return settings.mode === 'trust' || need.trustedHost
        ? { ask: false }
        : { ask: true, reason: `Fetches ${need.url} (not one of your subagents.trustedDomains).` };
  }
}

/** Whether reading this file asks: only files that may hold secrets, and not in trust mode. */
export function decideRead(path: string, mode: ApprovalMode): CommandVerdict {
  const secret = secretFileReason(path);
  if (!secret || mode === 'trust') return { ask: false };
  return { ask: true, reason: `Reads ${path}, which may hold secrets (${secret}).` };
}
