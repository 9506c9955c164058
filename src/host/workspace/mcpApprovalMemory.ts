import type * as vscode from 'vscode';
import type { McpApprovalMemory } from '../../core/tools/mcp/mcpHub';

const KEY = 'subagents.mcpServersApproved';

/**
 * The workspace-declared MCP servers the user approved, per workspace (VS Code's workspace state,
 * outside the workspace's files, so a project cannot approve its own servers). Keyed by what was
 * approved (mcpServerKey.ts): a changed declaration is a new question.
 */
export function mcpApprovalMemory(state: vscode.Memento): McpApprovalMemory {
  const approved = () => new Set(state.get<string[]>(KEY, []));
  return {
    isApproved: (key) => approved().has(key),
    remember: (key) => void state.update(KEY, [...approved().add(key)]),
  };
}
