import { renamedTool } from '../agentFiles/renamedTools';
import { mcpServerOf, mcpServerPrefix, mcpToolName } from '../mcp/mcpToolName';

/**
 * Whether a profile's `tools` or `disallowedTools` names this tool: by its name, by an earlier
 * name of it (a setting written before `subagent_start` became `delegate_task`'s background), or
 * for MCP tools by `mcp__<server>__*` (every tool of that server) or `mcp__<server>__<tool>` as
 * people write them (dots and other characters in the names are matched as the tool names spell them).
 */
export function listsTool(list: readonly string[], name: string): boolean {
  return list.some((entry) => entry === name || renamedTool(entry)?.tools.includes(name) === true || mcpEntryMatches(entry, name));
}

/** Whether a list names any tool of this MCP server (so a run needs the server started). */
export function listsServer(list: readonly string[], server: string): boolean {
  const prefix = mcpServerPrefix(server);
  return list.some((entry) => mcpServerOf(entry) !== undefined && normalized(entry).startsWith(prefix));
}

/** Whether a list takes out every tool of this MCP server. */
export function barsServer(list: readonly string[], server: string): boolean {
  return list.some((entry) => normalized(entry) === `${mcpServerPrefix(server)}*`);
}

function mcpEntryMatches(entry: string, name: string): boolean {
  if (!entry.startsWith('mcp__') || !name.startsWith('mcp__')) return false;
  const wanted = normalized(entry);
  return wanted.endsWith('__*') ? name.startsWith(wanted.slice(0, -1)) : wanted === name;
}

/** `mcp__my.server__get-doc` as its tool name spells it. */
function normalized(entry: string): string {
  const server = mcpServerOf(entry);
  if (server === undefined) return entry;
  const tool = entry.slice(`mcp__${server}__`.length);
  return tool === '*' ? `${mcpServerPrefix(server)}*` : mcpToolName(server, tool);
}
