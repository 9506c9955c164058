import { isAbsolute, join } from 'node:path';

/** `SUBAGENTS_CODE_CACHE=off`: the CLI compiles its code on every command and writes no cache. */
const CODE_CACHE_OFF = 'off';

/**
 * Where the CLI keeps V8's code cache of its bundles: `SUBAGENTS_CODE_CACHE` (a folder, or `off`
 * for none), else the platform's folder for caches, which may be emptied at any time:
 * `%LOCALAPPDATA%` on Windows, `~/Library/Caches` on macOS, `$XDG_CACHE_HOME` (when absolute, as
 * the XDG spec asks) or `~/.cache` elsewhere. Undefined: no cache.
 */
export function cliCodeCacheDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, home: string): string | undefined {
  const chosen = env.SUBAGENTS_CODE_CACHE?.trim();
  if (chosen) return chosen === CODE_CACHE_OFF ? undefined : chosen;
  const local = env.LOCALAPPDATA;
  if (platform === 'win32' && local && isAbsolute(local)) return join(local, 'subagents', 'code-cache');
  if (!home) return undefined;
  if (platform === 'darwin') return join(home, 'Library', 'Caches', 'subagents', 'code-cache');
  const xdg = env.XDG_CACHE_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(home, '.cache'), 'subagents', 'code-cache');
}
