import { lstat, realpath } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import type { ApprovalMode } from '../../config/settings/engineSettings';
import { protectedReason, secretFileReason } from '../paths/protectedPaths';
import { isInside } from '../paths/workspacePath';
import { analyzeCommandLine, type JudgedCommand } from './analyzeCommandLine';
import { known, shown, type Arg } from './args';
import { physicalPath } from './physicalPath';
import { optionReads } from './optionReads';
import { unnamedReads } from './unnamedReads';
import { isPlainWrapperPath, isReadOnlyCommand, wordsThatAreNotPaths } from './readOnlyMatch';
import type { Cwd } from './walkCommandLine';

/** Whether a command line may run unasked, and if not, why, in words the user reads. */
export type CommandVerdict = { ask: false } | { ask: true; reason: string };

export interface CommandPolicy {
  mode: ApprovalMode;
  /** The workspace root, against which paths in the command are judged. */
  root: string;
  /** Command prefixes that run unasked in ask and autoEdit modes (`git status`, `npm test`). */
  autoApprove: readonly string[];
  /** It will run in the OS sandbox, which holds what no text check can see (inline code, archives). */
  sandboxed?: boolean;
  /** How the user lets a command run unasked, in the host's words, for the prefix it would take. */
  allowHint?: ((prefix: string) => string) | undefined;
}

/** The extension's way: the user setting (the CLI names its --allow-command flag instead). */
export const SETTING_ALLOW_HINT = (prefix: string): string => `add "${prefix}" to the user setting subagents.autoApproveCommands`;

/**
 * Judges a command line command by command, after bash's static expansions (braces, `~`, globs
 * against the real files, `cd`). In every mode it asks when the line cannot be parsed, when a
 * command writes (by redirection or by argument: `cp`, `tee`, `sed -i`…) a protected file, a file
 * outside the workspace or one known only when it runs, when it names a protected path, and when
 * it does what no text check can see (inline code, an archive's contents) outside the sandbox.
 * In ask and autoEdit it also asks unless every command matches an allowlisted prefix (wrappers
 * and interpreters never by their own name) or is a read-only command (readOnlyCommands.ts); in
 * ask mode a write to a file is an edit and asks.
 */
export async function judgeCommand(line: string, policy: CommandPolicy): Promise<CommandVerdict> {
  const realRoot = await realpath(policy.root);
  const analysis = await analyzeCommandLine(line, { known: [{ logical: policy.root, physical: realRoot }] });
  if (!analysis.ok) return ask(`The command line cannot be judged part by part: ${analysis.reason}.`);
  const { commands } = analysis;
  if (commands.length === 0) return ask('The command line is empty.');
  const paths = new PathJudge(realRoot);

  for (const command of commands) {
    const why =
      (await concernInEveryMode(command, paths, policy)) ??
      (policy.mode === 'trust' ? undefined : await concernUnlessTrusted(command, paths, policy));
    if (why) return ask(why);
  }
  return { ask: false };
}

/** What asks whatever the mode: writes to protected, outside or unknown paths, protected names, the unseen. */
async function concernInEveryMode(command: JudgedCommand, paths: PathJudge, policy: CommandPolicy): Promise<string | undefined> {
  const { facts, effects } = command;
  const where = `\`${show(command)}\``;
  for (const r of facts.redirects.filter((r) => r.writes)) {
    const why = await paths.writeConcern(r.target, facts.cwd, policy.sandboxed);
    if (why) return `${where} writes ${why}.`;
  }
  // `cat < .env` reads the secret as surely as `cat .env` does.
  for (const r of facts.redirects.filter((r) => r.reads)) {
    const why = await paths.mentionConcern(r.target, facts.cwd, true);
    if (why) return `${where} reads a protected path: ${why}.`;
  }
  // So does `grep -f.env`, whose file is glued to its option.
  for (const read of optionReads(command.argv)) {
    const why = await paths.mentionConcern(read, facts.cwd, true);
    if (why) return `${where} reads a protected path: ${why}.`;
  }
  for (const arg of command.argv.slice(1)) {
    const why = await paths.mentionConcern(arg, facts.cwd, effects.readsOnly);
    if (why) return `${where} names a protected path: ${why}.`;
  }
  for (const target of effects.writes) {
    const why = await paths.writeConcern(target, facts.cwd, policy.sandboxed);
    if (why) return `${where} writes ${why}.`;
  }
  for (const source of effects.linkSources) {
    if (known(source) && !(await paths.inside(source.value, facts.cwd))) return `${where} links to ${source.value}, outside the workspace.`;
  }
  if (effects.opaque && !policy.sandboxed) return `${where}: ${effects.opaque}; without the OS sandbox that asks.`;
  return undefined;
}

/** What asks in ask and autoEdit: anything not allowlisted, variables, paths outside; in ask mode, writes. */
async function concernUnlessTrusted(command: JudgedCommand, paths: PathJudge, policy: CommandPolicy): Promise<string | undefined> {
  const { facts, effects, argv } = command;
  const where = `\`${show(command)}\``;
  // Code bash runs where no command is written (arithmetic subscripts, see arithmeticCode.ts).
  if (argv.length === 0 && effects.opaque) return `${where}: ${effects.opaque}.`;
  if (command.nested && argv.length === 0) return undefined;
  if (facts.assignments.length > 0) {
    return `${where} sets ${facts.assignments.map((a) => a.split('=')[0]).join(', ')}, which can change what the commands run.`;
  }
  if (effects.sets?.length) {
    const names = effects.sets.map((n) => (n === '*' ? 'the whole environment' : n)).join(', ');
    return `${where} changes ${names} in the environment of the command it runs, which can change what that command runs.`;
  }
  // A shell given code (`bash -c '…'`) is judged by the commands of that code, listed after it.
  const judgedInside = effects.script !== undefined && known(effects.script);
  // `cd` only moves the commands after it, which are judged where it leads.
  const movesOnly = known(argv[0]) && FOLDER_MOVES.has(argv[0].value) && command.wrappers.length === 0;
  if (
    argv.length > 0 &&
    !judgedInside &&
    !movesOnly &&
    !matchesAllowlist(command, policy) &&
    !isReadOnlyCommand(command, policy.sandboxed === true)
  ) {
    return notAllowed(command, policy);
  }
  const unknownArg = argv.find((a): a is Extract<Arg, { unknown: string }> => !known(a));
  if (unknownArg) return `${where} uses ${unknownArg.unknown}, whose value is known only when it runs.`;
  if (!('known' in facts.cwd)) return `${where} runs where ${facts.cwd.unknown}.`;
  if (facts.cwd.known.some((p) => !isInside(paths.root, p.physical))) return `${where} runs outside the workspace.`;
  const notPaths = wordsThatAreNotPaths(command, policy.sandboxed === true);
  for (const arg of argv.slice(1)) {
    if (known(arg) && !notPaths.has(arg) && !(await paths.inside(pathPart(arg.value), facts.cwd)))
      return `${where} names a path outside the workspace (${arg.value}).`;
  }
  const unnamed = unnamedReads(argv);
  if (unnamed) return `${where}: ${unnamed}.`;
  for (const target of [...facts.redirects.filter((r) => r.reads).map((r) => r.target), ...optionReads(argv)]) {
    if (!known(target)) return `${where} reads from ${target.unknown}, a file known only when it runs.`;
    if (!(await paths.inside(target.value, facts.cwd))) return `${where} reads ${target.value}, outside the workspace.`;
  }
  if (policy.mode === 'ask') {
    if (facts.redirects.some((r) => r.writes)) return `${where} writes its output to a file.`;
    const target = effects.writes[0];
    if (target) return `${where} writes ${shown(target)}.`;
  }
  return undefined;
}

const FOLDER_MOVES = new Set(['cd', 'pushd', 'popd']);

/** Tools whose second word says what they do (`npx vitest`, `git push`): the prefix to allow has both. */
const SUBCOMMAND_TOOLS = new Set([
  'npx',
  'npm',
  'pnpm',
  'yarn',
  'bun',
  'bunx',
  'deno',
  'git',
  'cargo',
  'go',
  'dotnet',
  'mvn',
  'gradle',
  'docker',
  'kubectl',
  'pip',
  'pip3',
  'uv',
  'poetry',
  'make',
]);

/** Which part of the line is not allowed, and how the user would allow it. */
function notAllowed(command: JudgedCommand, policy: CommandPolicy): string {
  const words = command.argv.filter(known).map((a) => a.value);
  const [first, second] = words;
  const prefix =
    first && second && SUBCOMMAND_TOOLS.has(first) && /^[\w:@.-]+$/.test(second) && !second.startsWith('-')
      ? `${first} ${second}`
      : (first ?? '');
  const part = prefix !== show(command) ? `\`${prefix}\` (in \`${show(command)}\`)` : `\`${prefix}\``;
  const runs = command.effects.opaque ? ` (${command.effects.opaque})` : '';
  return `${part}${runs} is not among the commands allowed without asking (read-only commands and the allowed prefixes); to allow it, ${(policy.allowHint ?? SETTING_ALLOW_HINT)(prefix)}.`;
}

function ask(reason: string): CommandVerdict {
  return { ask: true, reason };
}

/**
 * The effective command's words start with the entry's words. Wrappers (`env`, `xargs`) are
 * looked through, so their own name never matches; an interpreter's name alone never matches
 * either (`python` does not approve `python x.py`), except for inline code in the sandbox.
 */
function matchesAllowlist(command: JudgedCommand, policy: CommandPolicy): boolean {
  const { argv, effects } = command;
  // `./nice npm test` runs ./nice, a program of the workspace, not the allowed `npm test`.
  if (!command.wrappers.every((w) => isPlainWrapperPath(w, policy.root))) return false;
  return policy.autoApprove.some((prefix) => {
    const wanted = prefix.trim().split(/\s+/).filter(Boolean);
    if (wanted.length === 0 || wanted.length > argv.length) return false;
    if (!wanted.every((w, i) => known(argv[i]) && (argv[i] as { value: string }).value === w)) return false;
    if (!effects.launcher || wanted.length > 1) return true;
    return effects.opaque !== undefined && policy.sandboxed === true;
  });
}

/** A word's path part: the value after `=` in `--output=x`. */
function pathPart(value: string): string {
  const eq = value.indexOf('=');
  return value.startsWith('-') && eq > 0 ? value.slice(eq + 1) : value;
}

/** Judges paths as the kernel will resolve them from each folder the command may run in. */
class PathJudge {
  constructor(readonly root: string) {}

  /** Absolute paths, physical, for each folder; undefined when the folder is unknown and the path relative. */
  private async resolveAll(path: string, cwd: Cwd): Promise<string[] | undefined> {
    if (path.startsWith('/')) return [await physicalPath('/', path)];
    if (!('known' in cwd)) return undefined;
    return Promise.all(cwd.known.map((p) => physicalPath(p.physical, path)));
  }

  async inside(path: string, cwd: Cwd): Promise<boolean> {
    if (!path || path.startsWith('-')) return true;
    const all = await this.resolveAll(path, cwd);
    return all === undefined || all.every((abs) => isInside(this.root, abs));
  }

  async writeConcern(target: Arg, cwd: Cwd, sandboxed?: boolean): Promise<string | undefined> {
    if (!known(target)) return sandboxed ? undefined : `to ${target.unknown}, a path known only when it runs`;
    if (/^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/.test(target.value)) return undefined;
    const all = await this.resolveAll(target.value, cwd);
    if (!all)
      return sandboxed ? undefined : `to ${target.value} in a folder known only when it runs (${'unknown' in cwd ? cwd.unknown : ''})`;
    for (const abs of all) {
      if (!isInside(this.root, abs)) {
        if (sandboxed) continue;
        return `to ${target.value}, outside the workspace (${abs}), which is not an ordinary workspace path`;
      }
      const why = protectedReason(this.rel(abs));
      if (why) return `to a protected file: ${why}`;
      const info = await lstat(abs).catch(() => undefined);
      if (info?.isFile() && info.nlink > 1) return `to ${target.value}, a file with other hard links (they may lead outside the workspace)`;
    }
    return undefined;
  }

  /** A protected path named as a word or after `=` (`--output=.git/x`); for readers, only secrets. */
  async mentionConcern(arg: Arg, cwd: Cwd, readsOnly: boolean): Promise<string | undefined> {
    if (!known(arg)) return undefined;
    const candidates = [arg.value];
    const eq = arg.value.indexOf('=');
    if (eq >= 0) candidates.push(arg.value.slice(eq + 1));
    // git's `REV:path` (`git show HEAD:.env`) reads that file as the commit has it.
    const colon = arg.value.lastIndexOf(':');
    if (colon > 0 && !arg.value.startsWith('-')) candidates.push(arg.value.slice(colon + 1));
    for (const candidate of candidates) {
      if (!candidate || candidate.startsWith('-')) continue;
      for (const abs of (await this.resolveAll(candidate, cwd)) ?? []) {
        if (!isInside(this.root, abs)) continue;
        const rel = this.rel(abs);
        const why = readsOnly ? secretFileReason(rel) : protectedReason(rel);
        if (why) return why;
      }
    }
    return undefined;
  }

  private rel(abs: string): string {
    return relative(this.root, abs).split(sep).join('/');
  }
}

function show(command: JudgedCommand): string {
  const text = command.facts.text.replace(/\s+/g, ' ').trim();
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}
