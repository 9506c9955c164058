import { declareMcpServers, describeMcpDeclProblem, type McpDeclarations, type McpServerDecl } from '../core/config/mcp/mcpDeclarations';
import { McpHub } from '../core/tools/mcp/mcpHub';
import { mcpApprovalKey, mcpServerKey } from '../core/config/mcp/mcpServerKey';
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

/**
 * `--allow-mcp NAME` approves the declaration NAME has now (mcpApprovalKey): a server of that name
 * written elsewhere later (an agent file a run writes) is asked about. A name declared differently
 * in two places (settings, .mcp.json, .vscode/mcp.json, agent files) is refused: exit 2 naming them.
 */
export function cliMcpHub(
  workspace: string,
  declared: McpDeclarations,
  allowed: readonly string[],
  profileServers: readonly McpServerDecl[],
  logger: Logger,
  storage?: string,
): McpHub {
  const all = [...declared.servers, ...profileServers];
  const known = new Set([...all.map((s) => s.name), ...declared.problems.filter((p) => p.conflict).map((p) => p.server)]);
  const unknown = allowed.filter((name) => !known.has(name));
  if (unknown.length) {
    const names = [...known].join(', ') || 'none';
    throw new UsageError(`--allow-mcp ${unknown.join(', ')}: no MCP server of that name is declared here (declared: ${names}).`);
  }
  const allowedKeys: string[] = [];
  for (const name of allowed) {
    const conflict = declared.problems.find((p) => p.conflict && p.server === name);
    if (conflict) throw new UsageError(`--allow-mcp ${name}: ${describeMcpDeclProblem(conflict)}`);
    const decls = all.filter((s) => s.name === name);
    if (new Set(decls.map((d) => mcpServerKey(d.config))).size > 1) {
      throw new UsageError(
        `--allow-mcp ${name}: the MCP server "${name}" is declared differently in ${decls.map((d) => d.source).join(' and ')}, so the name does not say which one. Remove or rename all but one of them.`,
      );
    }
    allowedKeys.push(...decls.map(mcpApprovalKey));
  }
  // The thread storage may be in the workspace (the default): a sandboxed server may not write it, as commands may not.
  return new McpHub({ root: workspace, declarations: () => declared, allowedKeys, logger, ...(storage ? { readOnly: [storage] } : {}) });
}
