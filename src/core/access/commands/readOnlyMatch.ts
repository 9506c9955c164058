import { isAbsolute } from 'node:path';
import { isInside } from '../paths/workspacePath';
import type { JudgedCommand } from './analyzeCommandLine';
import { known, type Arg } from './args';
import { NO_PATH_WORDS, PATTERN_FIRST, READ_ONLY_COMMANDS, READ_ONLY_GIT_GLOBALS, READ_ONLY_GIT_VERBS } from './readOnlyCommands';

/** Wrappers that only time, slow down or limit the command they run. */
const PLAIN_WRAPPERS = new Set(['time', 'nice', 'timeout', 'stdbuf', 'nohup', 'command', 'builtin', 'exec', 'env']);

/**
 * Whether this command of a line is one of the read-only commands (readOnlyCommands.ts) as the
 * judge found it: called by its bare name, through plain wrappers only, running nothing in its
 * place (no program in its options, no shell code, no changed environment). What it writes by
 * redirection or option is judged apart, as any write is. git's read-only verbs count only in
 * the OS sandbox, since the repository's config can make them run programs.
 */
export function isReadOnlyCommand(command: JudgedCommand, sandboxed: boolean): boolean {
  const { argv, effects } = command;
  const name = argv[0];
  if (!known(name) || name.value.includes('/')) return false;
  if (effects.opaque !== undefined || effects.script !== undefined || effects.launcher || effects.sets?.length) return false;
  if (!command.wrappers.every((w) => PLAIN_WRAPPERS.has(w))) return false;
  if (name.value === 'git') return sandboxed && readOnlyGit(argv.slice(1));
  return READ_ONLY_COMMANDS.has(name.value);
}

/** A wrapper named by a path is a program of its own unless it is outside the workspace (`/usr/bin/time`, not `./nice`). */
export function isPlainWrapperPath(wrapper: string, root: string): boolean {
  return !wrapper.includes('/') || (isAbsolute(wrapper) && !isInside(root, wrapper));
}

/** Options of `git branch` that create, delete, rename or configure a branch. */
const BRANCH_CHANGES =
  /^(-[a-zA-Z]*[dDmMcCfut]|--(delete|move|copy|force|set-upstream-to|unset-upstream|edit-description|track|no-track|create-reflog|set-upstream))/;

function readOnlyGit(args: Arg[]): boolean {
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i]!;
    if (!known(arg)) return false;
    if (!arg.value.startsWith('-')) break;
    if (!READ_ONLY_GIT_GLOBALS.has(arg.value)) return false;
  }
  const verb = args[i];
  if (!known(verb) || !READ_ONLY_GIT_VERBS.has(verb.value)) return false;
  if (verb.value !== 'branch') return true;
  // `git branch` lists; with a name it makes one, unless --list (-l) makes the names patterns.
  const rest = args.slice(i + 1);
  if (rest.some((a) => !known(a) || BRANCH_CHANGES.test(a.value))) return false;
  const listing = rest.some((a) => known(a) && (a.value === '--list' || a.value === '-l'));
  return listing || rest.every((a) => known(a) && a.value.startsWith('-'));
}

/**
 * The words of a read-only command that are not files it opens (`grep "/api/" src`'s pattern,
 * `echo /x`), so that a path outside the workspace there is no reason to ask.
 */
export function wordsThatAreNotPaths(command: JudgedCommand, sandboxed: boolean): ReadonlySet<Arg> {
  if (!isReadOnlyCommand(command, sandboxed)) return new Set();
  const [name, ...args] = command.argv;
  if (!known(name)) return new Set();
  if (NO_PATH_WORDS.has(name.value)) return new Set(args);
  const patternOptions = PATTERN_FIRST[name.value];
  if (!patternOptions) return new Set();
  // A short one may end a cluster or carry its value (`-rf/etc/p`, `-ie x`): any short option word holding its letter counts.
  const byOption = args.some(
    (a) =>
      known(a) &&
      patternOptions.some((o) =>
        o.startsWith('--') ? a.value === o || a.value.startsWith(`${o}=`) : new RegExp(`^-[A-Za-z]*${o[1]}`).test(a.value),
      ),
  );
  if (byOption) return new Set();
  // The first word that is not an option (options that take a value are rare before it: -A 3, -m 1 are caught by the number check).
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!known(arg)) return new Set();
    if (arg.value === '--') return args[i + 1] ? new Set([args[i + 1]!]) : new Set();
    if (arg.value.startsWith('-')) continue;
    if (/^\d+$/.test(arg.value) && i > 0) continue;
    return new Set([arg]);
  }
  return new Set();
}
