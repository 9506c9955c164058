import { randomUUID } from 'node:crypto';

/** The variable each command carries, so what it leaves behind can be found and ended (see runProcess). */
export const COMMAND_TOKEN = 'SUBAGENTS_COMMAND_TOKEN';

/**
 * Never passed to a command: the keys this product holds or reads (`*_API_KEY`, `SUBAGENTS_*`),
 * the editor's channels back into itself (its CLI hook, the git extension's askpass, which hands
 * out credentials), and `CDPATH`, which would make `cd` go where the judge did not look.
 */
const ALWAYS_EXCLUDED = ['*_API_KEY', 'SUBAGENTS_*', 'VSCODE_IPC_HOOK*', 'VSCODE_GIT_*', 'GIT_ASKPASS', 'ELECTRON_RUN_AS_NODE', 'CDPATH'];

/** `*` and `?` wildcards, whole name, letter case ignored (Windows does, and a key is a key). */
function matcher(patterns: readonly string[]): (name: string) => boolean {
  const regexes = patterns.map(
    (p) =>
      new RegExp(
        `^${p
          .replace(/[.+^${}()|[\]\\]/g, '\\$&')
          .replace(/\*/g, '.*')
          .replace(/\?/g, '.')}$`,
        'i',
      ),
  );
  return (name) => regexes.some((r) => r.test(name));
}

/**
 * The environment of an agent's command: the host's, without the keys and channels above and the
 * user's `subagents.commandEnv.exclude` patterns, with pagers off (no one can press q) and a fresh
 * token of its own.
 */
export function commandEnvironment(base: NodeJS.ProcessEnv, exclude: readonly string[]): Record<string, string> {
  return { ...withoutProductKeys(base, exclude), PAGER: 'cat', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', [COMMAND_TOKEN]: randomUUID() };
}

/** `base` without the keys and channels above (and the names `exclude` matches): what the product's own helpers (git) also get. */
export function withoutProductKeys(base: NodeJS.ProcessEnv, exclude: readonly string[] = []): Record<string, string> {
  const excluded = matcher([...ALWAYS_EXCLUDED, ...exclude]);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) if (value !== undefined && !excluded(name)) env[name] = value;
  return env;
}
