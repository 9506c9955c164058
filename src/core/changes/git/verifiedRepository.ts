import { lstat, readFile, realpath } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { isInside } from '../../platform/files/isInside';

/** The repository the product's own git works in, once its git folder is known to be the one it seems. */
export interface VerifiedRepository {
  /** The work tree's top folder (real path). */
  top: string;
  /** Its git folder: `<top>/.git`, or a linked worktree's folder in the main repository. */
  gitDir: string;
  /** The folder with the objects, refs and config: the git folder, or a linked worktree's main one. */
  commonDir: string;
}

/**
 * A repository whose git folder the product will not use: the sentence says what is wrong and what
 * to do. A command in the sandbox can write files that steer git (a `.git` file, `commondir`,
 * `objects/info/alternates`); the product's git runs outside the sandbox, so it follows none of them.
 */
export class GitDirRefused extends Error {
  override readonly name = 'GitDirRefused';
}

/**
 * Finds the repository around `dir` as git would (the nearest `.git` going up), and checks that its
 * git folder is one git itself made for this work tree: `<top>/.git` as a real folder, or a `.git`
 * file naming a linked worktree (`<common>/worktrees/<name>`, whose `gitdir` names this `.git`
 * back) or a submodule's folder (whose `core.worktree` names this top back); and no borrowed
 * objects (`objects/info/alternates`). Undefined when there is no repository; GitDirRefused when
 * there is one the product must not use.
 */
export async function verifiedRepository(dir: string): Promise<VerifiedRepository | undefined> {
  let at = await realpath(dir);
  for (;;) {
    const found = await gitEntryAt(at);
    if (found) {
      const repo = found === 'dir' ? await ownGitDir(at) : await linkedGitDir(at);
      if (repo) {
        await refuseAlternates(repo);
        return repo;
      }
    }
    const up = dirname(at);
    if (up === at) return undefined;
    at = up;
  }
}

/** What `<at>/.git` is: a folder, a file, nothing; a symbolic link is refused. */
async function gitEntryAt(at: string): Promise<'dir' | 'file' | undefined> {
  const entry = join(at, '.git');
  const info = await lstat(entry).catch(() => undefined);
  if (!info) return undefined;
  if (info.isSymbolicLink())
    throw new GitDirRefused(
      `${entry} is a symbolic link; the product's git does not follow it (it could lead to any repository). Replace it with the git folder itself, or remove it if it was not made by you.`,
    );
  if (info.isDirectory()) return 'dir';
  return info.isFile() ? 'file' : undefined;
}

/** `<top>/.git` as a folder: it is the git folder, unless it is no repository at all (git looks further up then). */
async function ownGitDir(top: string): Promise<VerifiedRepository | undefined> {
  const gitDir = join(top, '.git');
  if (!(await looksLikeGitDir(gitDir))) return undefined;
  if (await exists(join(gitDir, 'commondir'))) {
    throw new GitDirRefused(
      `${gitDir} has a "commondir" file, which would make git take its objects, refs and config from another folder. git never writes one there: remove ${join(gitDir, 'commondir')} if you did not make it.`,
    );
  }
  return { top, gitDir, commonDir: gitDir };
}

/** `<top>/.git` as a file: a linked worktree or a submodule, each only when its git folder names this top back. */
async function linkedGitDir(top: string): Promise<VerifiedRepository> {
  const dotGit = join(top, '.git');
  const text = await readFile(dotGit, 'utf8').catch(() => '');
  const named = /^gitdir: (.+)$/m.exec(text)?.[1]?.trim();
  const refuse = (why: string) =>
    new GitDirRefused(
      `${dotGit} points git at ${named ?? 'nothing'}, which ${why}. The product's git does not use it: a command could have written that file. If it is yours, make ${top} a plain clone (or a worktree made by "git worktree add"); else remove ${dotGit}.`,
    );
  if (!named) throw refuse('is not a "gitdir: PATH" line');
  const gitDir = await realpath(resolve(top, named)).catch(() => undefined);
  if (!gitDir) throw refuse('does not exist');
  if (isInside(top, gitDir)) throw refuse('lies inside the work tree itself');
  if (!(await looksLikeGitDir(gitDir, { linked: true }))) throw refuse('is not a git folder');
  const common = await readFile(join(gitDir, 'commondir'), 'utf8').catch(() => undefined);
  if (common !== undefined) {
    const commonDir = await realpath(resolve(gitDir, common.trim())).catch(() => undefined);
    if (!commonDir || dirname(gitDir) !== join(commonDir, 'worktrees') || isInside(top, commonDir) || !(await looksLikeGitDir(commonDir))) {
      throw refuse('is not a worktree folder (<repository>/.git/worktrees/NAME) of a repository outside this folder');
    }
    const back = (await readFile(join(gitDir, 'gitdir'), 'utf8').catch(() => '')).trim();
    if (!back || (await realpath(resolve(gitDir, back)).catch(() => undefined)) !== dotGit)
      throw refuse(`does not name ${dotGit} back (its "gitdir" file), as git's own worktrees do`);
    return { top, gitDir, commonDir };
  }
  // A submodule's git folder (<super>/.git/modules/NAME), whose core.worktree is this top.
  const worktree = coreWorktree(await readFile(join(gitDir, 'config'), 'utf8').catch(() => ''));
  const namedBack = worktree ? await realpath(resolve(gitDir, worktree)).catch(() => undefined) : undefined;
  if (namedBack !== top) throw refuse(`does not name ${top} back (its core.worktree), as a submodule's git folder does`);
  return { top, gitDir, commonDir: gitDir };
}

/** `core.worktree` of a config file's text, read plainly (anything unusual reads as none, and is refused). */
function coreWorktree(config: string): string | undefined {
  let inCore = false;
  let value: string | undefined;
  for (const line of config.split('\n')) {
    const section = /^\s*\[([^\]]*)\]/.exec(line);
    if (section) inCore = section[1]!.trim().toLowerCase() === 'core';
    const m = inCore ? /^\s*worktree\s*=\s*(.+?)\s*$/i.exec(line) : null;
    if (m) value = m[1]!.replace(/^"(.*)"$/, '$1');
  }
  return value;
}

/** HEAD, objects and refs, as git's own test (a linked worktree's folder has only HEAD of those). */
async function looksLikeGitDir(dir: string, options: { linked?: boolean } = {}): Promise<boolean> {
  const head = await lstat(join(dir, 'HEAD')).catch(() => undefined);
  if (!head?.isFile()) return false;
  if (options.linked) return true;
  const [objects, refs] = await Promise.all([
    lstat(join(dir, 'objects')).catch(() => undefined),
    lstat(join(dir, 'refs')).catch(() => undefined),
  ]);
  return objects?.isDirectory() === true && refs?.isDirectory() === true;
}

/**
 * `objects/info/alternates` makes git read objects from other folders: content the product would
 * then write into the workspace (an apply) or keep as a file's earlier version could come from any
 * repository on the disk, chosen by whoever wrote that file.
 */
async function refuseAlternates(repo: VerifiedRepository): Promise<void> {
  const file = join(repo.commonDir, 'objects', 'info', 'alternates');
  const text = await readFile(file, 'utf8').catch(() => '');
  const entries = text.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'));
  if (entries.length === 0) return;
  throw new GitDirRefused(
    `${file} makes git read objects from ${entries.join(', ')}; the product's git does not borrow objects (a command could have written that file). If you made it (git clone --shared or --reference), run "git repack -a -d" in ${repo.top} and then remove ${file}.`,
  );
}

async function exists(path: string): Promise<boolean> {
  return (await lstat(path).catch(() => undefined)) !== undefined;
}
