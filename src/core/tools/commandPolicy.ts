import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { ApprovalMode } from '../engineSettings';
import { parseCommandLine, type Redirect, type SimpleCommand, type Word } from './commandLine';
import { protectedReason } from './protectedPaths';
import { isInside, resolveWorkspacePath } from './workspacePath';


/** Whether a command line may run unasked, and if not, why, in words the user reads. */
export type CommandVerdict = { ask: false } | { ask: true; reason: string };

export interface CommandPolicy {
  mode: ApprovalMode;
  /** The workspace root, against which paths in the command are judged. */
  root: string;
  /** Command prefixes that run unasked in ask and autoEdit modes (`git status`, `npm test`). */
  autoApprove: readonly string[];
}

/**
 * Judges a command line part by part. In every mode it asks when the line cannot be parsed, when
 * output is redirected to a protected file, outside the workspace or to a path known only at run
 * time, or when a part names a protected path. In ask and autoEdit it also asks unless every part
 * starts with an allowlisted prefix; in ask mode a redirection into a file is an edit and asks.
 */
export async function judgeCommand(line: string, policy: CommandPolicy): Promise<CommandVerdict> {
  const parsed = parseCommandLine(line);
  if (!parsed.ok) return { ask: true, reason: `The command line cannot be judged part by part: ${parsed.reason}.` };
  const { commands } = parsed;
  if (commands.length === 0) return { ask: true, reason: 'The command line is empty.' };

  for (const command of commands) {
    for (const r of command.redirects.filter(writesFile)) {
      const why = await writeTargetConcern(r.target, policy.root);
      if (why) return { ask: true, reason: `\`${show(command)}\` writes ${why}.` };
    }
    for (const word of command.words) {
      const why = protectedMention(word, policy.root);
      if (why) return { ask: true, reason: `\`${show(command)}\` names a protected path: ${why}.` };
    }
  }
  if (policy.mode === 'trust') return { ask: false };

  for (const command of commands) {
    if (!policy.autoApprove.some((prefix) => startsWith(command.words, prefix))) {
      return { ask: true, reason: `\`${show(command)}\` is not in subagents.autoApproveCommands.` };
    }
    const variable = command.words.find((w) => w.variable);
    if (variable) return { ask: true, reason: `\`${show(command)}\` uses ${variable.value}, whose value is known only when it runs.` };
    const outside = command.words.find((w) => pointsOutside(w.value, policy.root));
    if (outside) return { ask: true, reason: `\`${show(command)}\` names a path outside the workspace (${outside.value}).` };
    if (policy.mode === 'ask' && command.redirects.some(writesFile)) {
      return { ask: true, reason: `\`${show(command)}\` writes its output to a file.` };
    }
  }
  return { ask: false };
}

/** A redirection that opens a file for writing; `2>&1`, input and /dev/null do not. */
function writesFile(r: Redirect): boolean {
  return !r.fd && r.op !== '<' && r.op !== '<&' && r.target.value !== '/dev/null';
}

/**
 * What is wrong with writing to this redirection target, or undefined when it is an ordinary
 * workspace file. Resolved like a tool's path, so a symlink out of the workspace is seen.
 */
async function writeTargetConcern(target: Word, root: string): Promise<string | undefined> {
  if (target.dynamic) return `to ${target.value}, a path known only when it runs`;
  const checked = await resolveWorkspacePath(root, target.value);
  if (!checked.ok) return `to ${target.value}, which is not an ordinary workspace path`;
  const why = protectedReason(checked.rel);
  return why ? `to a protected file: ${why}` : undefined;
}

/** A word that names a protected workspace path, as itself or after `=` (`--output=.git/x`). */
function protectedMention(word: Word, root: string): string | undefined {
  if (word.dynamic) return undefined;
  const candidates = [word.value];
  const eq = word.value.indexOf('=');
  if (eq >= 0) candidates.push(word.value.slice(eq + 1));
  for (const candidate of candidates) {
    if (!candidate || candidate.startsWith('-')) continue;
    const abs = resolve(root, candidate);
    if (!isInside(root, abs)) continue;
    const why = protectedReason(relPath(root, abs));
    if (why) return why;
  }
  return undefined;
}

/** An absolute or `..` path that leaves the workspace, as the word or after its `=`. */
function pointsOutside(value: string, root: string): boolean {
  const path = value.includes('=') ? value.slice(value.indexOf('=') + 1) : value;
  if (!(isAbsolute(path) || path.split(/[\\/]/).includes('..'))) return false;
  return !isInside(root, resolve(root, path));
}

/** The words of `prefix` (split on blanks) are the first words of the command, literally. */
function startsWith(words: readonly Word[], prefix: string): boolean {
  const wanted = prefix.trim().split(/\s+/).filter(Boolean);
  if (wanted.length === 0 || wanted.length > words.length) return false;
  return wanted.every((w, i) => !words[i]!.dynamic && words[i]!.value === w);
}

function relPath(root: string, abs: string): string {
  return relative(root, abs).split(sep).join('/');
}

function show(command: SimpleCommand): string {
  const text = command.words.map((w) => w.value).join(' ') || command.redirects.map((r) => `${r.op} ${r.target.value}`).join(' ');
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}
