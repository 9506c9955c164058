/**
 * Settings that decide what agents may do without asking: the approval mode, the commands that run
 * unasked, the domains fetched unasked, the sandbox and the commands' environment. A project must
 * not raise its own trust, so these are read only from the user's settings (and, in the CLI, from
 * flags): a workspace or folder value is ignored with a notice. The manifest marks them
 * `"scope": "application"` too.
 */

/** By setting name without the `subagents.` prefix; `sandbox.*`, `commandEnv.*` and `telemetry.*` are covered as families. */
const USER_ONLY = new Set(['approval', 'autoApproveCommands', 'trustedDomains']);
/**
 * `telemetry.*` too, for another reason: a project that could name the collector (or turn on the
 * recording of prompts and outputs) could have every run it sees sent to itself.
 */
const USER_ONLY_FAMILIES = ['sandbox', 'commandEnv', 'telemetry'];

export function isUserOnlySetting(name: string): boolean {
  return USER_ONLY.has(name) || USER_ONLY_FAMILIES.some((family) => name === family || name.startsWith(`${family}.`));
}

/** Why a project may not set it, for the notice: `telemetry.*` sends data away, the rest raise trust. */
export function userOnlyReason(name: string): string {
  return name === 'telemetry' || name.startsWith('telemetry.')
    ? 'it decides where traces of your runs are sent and what they hold, so only your user settings may set it (a project must not send your work away)'
    : 'it decides what agents may do without asking, so only your user settings may set it (a project cannot raise its own trust)';
}

/** Where to set one instead, for the notice. */
export const USER_ONLY_HINT = 'set it in your user settings (the CLI takes it as a flag: see "subagents --help")';
