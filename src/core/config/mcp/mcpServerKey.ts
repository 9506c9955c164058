import { createHash } from 'node:crypto';
import type { McpServerConfig } from './mcpServerConfig';

/**
 * What the user approves when a workspace declares a server: its command, arguments, working
 * folder and environment as written (names, and values before `${env:…}` is expanded, so a token
 * that changes in the environment asks nothing, but a changed literal such as NODE_OPTIONS asks
 * again), or its URL. Headers are left out: they carry tokens, and where a request goes is the URL.
 */
export function mcpServerKey(config: McpServerConfig): string {
  return digest(configShape(config));
}

/**
 * What an approval binds to (the extension's remembered one, the CLI's --allow-mcp): the
 * declaration the user saw and where it was written, so the same name declared elsewhere (another
 * file, another folder's settings, an agent file) is another question, and so is a relative
 * command in another place.
 */
export function mcpApprovalKey(decl: { config: McpServerConfig; source: string; profile?: string }): string {
  return digest({ ...configShape(decl.config), source: decl.source, profile: decl.profile ?? null });
}

function configShape(config: McpServerConfig): Record<string, unknown> {
  const what =
    config.transport === 'stdio'
      ? {
          command: config.command,
          args: config.args,
          cwd: config.cwd ?? null,
          env: Object.entries(config.env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        }
      : { url: config.url };
  return what;
}

function digest(what: unknown): string {
  return createHash('sha256').update(JSON.stringify(what)).digest('hex').slice(0, 32);
}
