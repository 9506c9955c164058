import { KEY_VARIABLES } from '../../models/keyVariables';
import type { McpServerDecl } from './mcpDeclarations';

/**
 * Our API keys (OPENAI_API_KEY, ANTHROPIC_API_KEY, SUBAGENTS_API_KEY) never reach a server the
 * workspace declared: not through `${env:…}` (or Claude Code's `${…}`) in its command, arguments,
 * env, folder, URL or headers, nor by inheritance. A repository would otherwise name a "server"
 * that posts them anywhere. A server in the user's own settings may name them.
 */
export const PRODUCT_KEY_VARIABLES: readonly string[] = Object.values(KEY_VARIABLES);

const REFERENCE = /\$\{(env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\}/g;

/** The key variables a workspace declaration refers to (none for the user's own). */
export function withheldKeysNamed(decl: McpServerDecl): string[] {
  if (decl.origin === 'user') return [];
  const c = decl.config;
  const texts =
    c.transport === 'stdio' ? [c.command, ...c.args, ...Object.values(c.env), c.cwd ?? ''] : [c.url, ...Object.values(c.headers)];
  const named = new Set<string>();
  for (const text of texts) {
    for (const [, env, name] of text.matchAll(REFERENCE)) if ((env || decl.bareNames) && isKeyVariable(name!)) named.add(name!);
  }
  return [...named];
}

/** The environment a declaration's variables and inherited env come from: a workspace's lacks our keys. */
export function environmentFor(
  decl: McpServerDecl,
  env: Readonly<Record<string, string | undefined>>,
): Readonly<Record<string, string | undefined>> {
  if (decl.origin === 'user') return env;
  return Object.fromEntries(Object.entries(env).filter(([name]) => !isKeyVariable(name)));
}

/** Why a workspace declaration may not start, or undefined. */
export function withheldKeysProblem(decl: McpServerDecl): string | undefined {
  const named = withheldKeysNamed(decl);
  if (!named.length) return undefined;
  return (
    `${decl.source} gives it ${named.map((n) => `\${${n}}`).join(', ')}, an API key this product holds, which is never given to a server the workspace declared. ` +
    'Remove the variable from the declaration, or declare the server in your user settings (subagents.mcpServers) if you trust it with the key'
  );
}

function isKeyVariable(name: string): boolean {
  // Windows treats names without regard to case, and so does the check.
  return PRODUCT_KEY_VARIABLES.some((key) => key.toLowerCase() === name.toLowerCase());
}
