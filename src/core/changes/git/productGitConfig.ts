/**
 * What keeps the product's own git (status around each command, the commits of worktree runs,
 * worktree add and remove) from running a program a repository's config names. That config is the
 * workspace's: a command in the sandbox may have written it, and the product's git runs outside.
 *
 * The keys that run a program, as git 2.39 reads them, each given here with a value that runs
 * nothing (through GIT_CONFIG_COUNT, which ranks above every config file and reaches the git
 * processes git itself starts). withGitHardening (sandbox/gitHardening.ts) adds the ones agents'
 * unasked commands get too: safe.bareRepository, core.fsmonitor, core.hooksPath, protocol.ext.allow.
 */
export const PRODUCT_GIT_SETTINGS: readonly [string, string][] = [
  ['core.pager', 'cat'],
  ['core.editor', ':'],
  ['sequence.editor', ':'],
  ['core.askPass', ''],
  ['credential.helper', ''],
  ['core.sshCommand', 'false'],
  ['commit.gpgSign', 'false'],
  ['tag.gpgSign', 'false'],
  ['submodule.recurse', 'false'],
  ['gc.auto', '0'],
  ['maintenance.auto', 'false'],
  ['protocol.allow', 'never'],
  ['core.quotePath', 'false'],
];

/**
 * The same in git's environment, which ranks above config: no pager, no editor, no prompt for a
 * password, no transport at all (an empty GIT_ALLOW_PROTOCOL allows none, whatever
 * `protocol.<name>.allow` says), so ssh, credential helpers and upload-pack hooks never start.
 */
export const PRODUCT_GIT_ENV: Readonly<Record<string, string>> = {
  GIT_PAGER: 'cat',
  PAGER: 'cat',
  GIT_EDITOR: ':',
  GIT_ASKPASS: '',
  GIT_TERMINAL_PROMPT: '0',
  GIT_ALLOW_PROTOCOL: '',
  GIT_OPTIONAL_LOCKS: '0',
};

/** Variables of the host that would run a program (GIT_EXTERNAL_DIFF) or point git elsewhere; the product sets its own. */
export const DROPPED_GIT_VARIABLES = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_COMMON_DIR',
  'GIT_NAMESPACE',
  'GIT_CEILING_DIRECTORIES',
  'GIT_EXTERNAL_DIFF',
  'GIT_SSH',
  'GIT_SSH_COMMAND',
  'SSH_ASKPASS',
];

/**
 * Drivers a repository can define under any name and name again in `.gitattributes` (which the
 * workspace holds): each of their program keys, and its value that runs nothing. A driver's
 * `required` is turned off, or a filter with no program would fail every `git add`.
 */
const DRIVER_KEYS: Record<string, Record<string, string>> = {
  filter: { clean: '', smudge: '', process: '', required: 'false' },
  diff: { command: '', textconv: '' },
  merge: { driver: '' },
};

/** Config scopes the workspace cannot write: the user's, the system's, the host process's. */
const TRUSTED_SCOPES = new Set(['system', 'global', 'command']);

/** The listing `driverOverrides` reads: `git config` with these arguments. */
export const DRIVER_LISTING_ARGS = ['config', '--null', '--show-scope', '--get-regexp', '^(filter|diff|merge)\\.'];

/**
 * Overrides for every driver the repository's own config (local or worktree scope, includes
 * counted) defines: each program key set to what the user's or the system's config says for it,
 * or to nothing. A driver only the user's config defines (git-lfs's filter) keeps working.
 * `listing` is the output of DRIVER_LISTING_ARGS: `scope\0key\nvalue\0` records.
 */
export function driverOverrides(listing: string): [string, string][] {
  const tokens = listing.split('\0');
  const trusted = new Map<string, string>();
  const hostile = new Set<string>();
  for (let i = 0; i + 1 < tokens.length; i += 2) {
    const scope = tokens[i]!;
    const record = tokens[i + 1]!;
    const eol = record.indexOf('\n');
    const key = eol < 0 ? record : record.slice(0, eol);
    const driver = driverOf(key);
    if (!driver) continue;
    // git prints section and variable in lower case and the name as written: one spelling per key.
    if (TRUSTED_SCOPES.has(scope)) trusted.set(key, eol < 0 ? 'true' : record.slice(eol + 1));
    else hostile.add(`${driver.section}.${driver.name}`);
  }
  const out: [string, string][] = [];
  for (const prefix of hostile) {
    const section = prefix.slice(0, prefix.indexOf('.'));
    for (const [variable, none] of Object.entries(DRIVER_KEYS[section]!)) {
      const key = `${prefix}.${variable}`;
      out.push([key, trusted.get(key) ?? none]);
    }
  }
  return out;
}

/** `filter.<name>.<variable>` → its section and name (a name may hold dots and spaces). */
function driverOf(key: string): { section: string; name: string } | undefined {
  const first = key.indexOf('.');
  const last = key.lastIndexOf('.');
  if (first < 0 || last <= first) return undefined;
  const section = key.slice(0, first).toLowerCase();
  if (!(section in DRIVER_KEYS)) return undefined;
  return { section, name: key.slice(first + 1, last) };
}
