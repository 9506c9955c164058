import { declareMcpServers, type McpDeclarations } from '../core/mcp/mcpDeclarations';
import { McpHub } from '../core/mcp/mcpHub';
import type { Logger } from '../core/ports';
import { UsageError } from './cliError';
import type { WorkspaceSettings } from './workspaceSettings';

/**
 * The CLI's MCP servers: those the workspace declares (its settings.json, .vscode/mcp.json,
 * .mcp.json, its agent files). The CLI reads no user settings, so every one is the workspace's
 * and starts only when named by --allow-mcp or approved at the terminal; nothing is remembered.
 */
export function cliMcpDeclarations(config: WorkspaceSettings, workspace: string): McpDeclarations {
  return declareMcpServers({ root: workspace, trusted: true, workspace: [{ source: config.path, value: config.mcpServers }] });
}

export function cliMcpHub(workspace: string, declared: McpDeclarations, allowed: readonly string[], profileServers: readonly string[], logger: Logger, storage?: string): McpHub {
  const known = new Set([...declared.servers.map((s) => s.name), ...profileServers]);
  const unknown = allowed.filter((name) => !known.has(name));
  if (unknown.length) {
    const names = [...known].join(', ') || 'none';
    throw new UsageError(`--allow-mcp ${unknown.join(', ')}: no MCP server of that name is declared here (declared: ${names}).`);
  }
  // The thread storage may be in the workspace (the default): a sandboxed server may not write it, as commands may not.
  return new McpHub({ root: workspace, declarations: () => declared, allowed, logger, ...(storage ? { readOnly: [storage] } : {}) });
}
