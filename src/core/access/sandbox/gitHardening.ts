import { processTempFolder } from './processTempFolder';

let hooksFolder: string | undefined;

/**
 * A hooks folder that is always empty: /dev/null on POSIX (nothing can be created under it), a
 * fresh temp folder on Windows, removed when the process exits.
 */
function emptyHooksFolder(): string {
  if (process.platform !== 'win32') return '/dev/null';
  hooksFolder ??= processTempFolder('subagents-no-hooks-');
  return hooksFolder;
}

/**
 * git settings that keep an auto-approved `git status` from becoming a launcher: no implicit bare
 * repositories (a fake one planted at the root is not used), no fsmonitor program, no hooks, no
 * `ext::` transport.
 */
export function withGitHardening(env: Record<string, string>): Record<string, string> {
  return withGitConfig(env, [
    ['safe.bareRepository', 'explicit'],
    ['core.fsmonitor', 'false'],
    ['core.hooksPath', emptyHooksFolder()],
    ['protocol.ext.allow', 'never'],
  ]);
}

/**
 * git settings given through GIT_CONFIG_COUNT/KEY/VALUE, which rank above every config file,
 * after any the environment already has.
 */
export function withGitConfig(env: Record<string, string>, settings: readonly [string, string][]): Record<string, string> {
  const existing = Number.parseInt(env.GIT_CONFIG_COUNT ?? '0', 10);
  const start = Number.isFinite(existing) && existing > 0 ? existing : 0;
  const out: Record<string, string> = { ...env, GIT_CONFIG_COUNT: String(start + settings.length) };
  settings.forEach(([key, value], i) => {
    out[`GIT_CONFIG_KEY_${start + i}`] = key;
    out[`GIT_CONFIG_VALUE_${start + i}`] = value;
  });
  return out;
}
