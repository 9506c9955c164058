import type * as vscode from 'vscode';
import type { AcpConsentMemory } from '../../core/config/acp/acpConsentKey';

const KEY = 'subagents.acpAgentsAllowed';

/**
 * The workspace-declared external agents the user allowed, per workspace (VS Code's workspace
 * state, outside the workspace's files, so a project cannot allow its own). Keyed by what was
 * allowed (acpConsentKey.ts): a changed declaration, or a script it names rewritten, asks again.
 */
export function acpConsentMemory(state: vscode.Memento): AcpConsentMemory {
  const allowed = () => new Set(state.get<string[]>(KEY, []));
  return {
    isApproved: (key) => allowed().has(key),
    remember: (key) => void state.update(KEY, [...allowed().add(key)]),
  };
}
