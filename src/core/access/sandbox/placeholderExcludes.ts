import { spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { isInside } from '../paths/workspacePath';
import { processTempFolder } from './processTempFolder';

/**
 * On Linux, sandbox-runtime keeps a missing protected path from being created by mounting
 * /dev/null over an empty file it makes there for the command's lifetime. Inside the sandbox git
 * sees those placeholders as untracked device files, and `git add -A` then fails on them
 * ("can only add regular files"). This writes a git excludes file that lists them (after the
 * user's own global excludes, which it replaces for sandboxed commands) so git passes over them.
 */

let folder: string | undefined;
let userExcludes: string | undefined;

/** The user's global excludes: core.excludesFile, or git's default ~/.config/git/ignore. */
function readUserExcludes(): string {
  const configured = spawnSync('git', ['config', '--global', '--get', 'core.excludesFile'], { encoding: 'utf8' });
  const path =
    configured.status === 0 && configured.stdout.trim()
      ? configured.stdout.trim().replace(/^~(?=\/)/, homedir())
      : join(process.env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'git', 'ignore');
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/**
 * The excludes file for a command whose protected paths are `denied` (absolute), or undefined
 * when none of them inside `root` is missing (no placeholder will appear).
 */
export function placeholderExcludes(root: string, denied: readonly string[]): string | undefined {
  const missing = [...new Set(denied)].filter(
    (path) => isInside(root, path) && path !== root && !lstatSync(path, { throwIfNoEntry: false }),
  );
  if (missing.length === 0) return undefined;
  userExcludes ??= readUserExcludes();
  folder ??= processTempFolder('subagents-sandbox-git-');
  // `**/`: the workspace may be a folder inside the repository.
  const patterns = missing.map((path) => `**/${relative(root, path).split(sep).join('/')}`).sort();
  const file = join(folder, `excludes-${patterns.join('\n').length}-${hash(patterns.join('\n'))}`);
  // Made again if it went: a process of another pid namespace sharing the temp folder sees this one as ended.
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    file,
    `${userExcludes.trimEnd()}\n# Placeholders of the Subagents sandbox for missing protected paths\n${patterns.join('\n')}\n`,
  );
  return file;
}

function hash(text: string): string {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) | 0;
  return (h >>> 0).toString(36);
}
