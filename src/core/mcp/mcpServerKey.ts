import { createHash } from 'node:crypto';
import type { McpServerConfig } from './mcpServerConfig';

/**
 * What the user approves when a workspace declares a server: its command, arguments, working
 * folder and environment as written (names, and values before `${env:…}` is expanded, so a token
 * that changes in the environment asks nothing, but a changed literal such as NODE_OPTIONS asks
 * again), or its URL. Headers are left out: they carry tokens, and where a request goes is the URL.
 */
export function mcpServerKey(config: McpServerConfig): string {
  const what =
    config.transport === 'stdio'
      ? { command: config.command, args: config.args, cwd: config.cwd ?? null, env: Object.entries(config.env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) }
      : { url: config.url };
  return createHash('sha256').update(JSON.stringify(what)).digest('hex').slice(0, 32);
}
