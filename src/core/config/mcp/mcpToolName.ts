import { createHash } from 'node:crypto';

/**
 * Tool names as the model sees them: `mcp__<server>__<tool>` (Claude Code's naming, so imported
 * allowlists work), in the characters every provider accepts (`[A-Za-z0-9_-]`, at most 64).
 */

const MAX_NAME = 64;

const safe = (part: string): string => part.replace(/[^A-Za-z0-9_-]/g, '_');

export function mcpToolName(server: string, tool: string): string {
  const name = `mcp__${safe(server)}__${safe(tool)}`;
  if (name.length <= MAX_NAME) return name;
  // Too long for providers: cut, and keep it unique with a digest of the whole.
  const digest = createHash('sha256').update(`${server}\0${tool}`).digest('hex').slice(0, 8);
  return `${name.slice(0, MAX_NAME - 9)}_${digest}`;
}

/** `mcp__<server>__` in tool-name characters: the prefix of every tool of that server. */
export function mcpServerPrefix(server: string): string {
  return `mcp__${safe(server)}__`;
}

/** The server a name or pattern `mcp__<server>__<tool|*>` is about, or undefined. */
export function mcpServerOf(name: string): string | undefined {
  return /^mcp__((?:[^_]|_(?!_))+)__/.exec(name)?.[1];
}
