/**
 * Settings that decide what agents may do without asking: the approval mode, the commands that run
 * unasked, the domains fetched unasked, the sandbox and the commands' environment. A project must
 * not raise its own trust, so these are read only from the user's settings (and, in the CLI, from
 * flags): a workspace or folder value is ignored with a notice. The manifest marks them
 * `"scope": "application"` too.
 */

/** By setting name without the `subagents.` prefix; `sandbox.*` and `commandEnv.*` are covered as families. */
const USER_ONLY = new Set(['approval', 'autoApproveCommands', 'trustedDomains']);
const USER_ONLY_FAMILIES = ['sandbox', 'commandEnv'];

export function isUserOnlySetting(name: string): boolean {
  return USER_ONLY.has(name) || USER_ONLY_FAMILIES.some((family) => name === family || name.startsWith(`${family}.`));
}

/** Where to set one instead, for the notice. */
export const USER_ONLY_HINT = 'set it in your user settings (the CLI takes it as a flag: see "subagents --help")';
