import { randomBytes } from 'node:crypto';
import { copyFile, rm, stat, utimes } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { git, runGit } from './runGit';

/**
 * A commit of the working tree of `top` as it is now (tracked changes and untracked files; what
 * .gitignore ignores left out), with `parent` as its parent, made through a temporary index: the
 * repository's own index, HEAD and branches are not touched (`git stash create` would leave the
 * untracked files out). The temporary index starts as a copy of the real one, so unchanged files
 * are not hashed again. `tempDir` holds it meanwhile.
 */
export async function commitWorkingTree(
  top: string,
  parent: string | undefined,
  message: string,
  tempDir: string,
): Promise<{ commit: string; tree: string }> {
  const index = join(tempDir, `index.${process.pid}.${randomBytes(4).toString('hex')}`);
  try {
    const real = (await git(top, ['rev-parse', '--git-path', 'index'])).trim();
    const realIndex = isAbsolute(real) ? real : join(top, real);
    const copied = await copyIndex(realIndex, index);
    const env = { GIT_INDEX_FILE: index };
    if (!copied) await git(top, parent ? ['read-tree', parent] : ['read-tree', '--empty'], { env });
    await git(top, ['add', '-A', '--', '.'], { env });
    const tree = (await git(top, ['write-tree'], { env })).trim();
    const commit = (await git(top, ['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-m', message])).trim();
    return { commit, tree };
  } finally {
    await rm(index, { force: true });
  }
}

/**
 * A copy of an index that keeps git's guard against racy entries: git re-reads a file whose time
 * is not older than the index's own, which a fresh copy (with the time of now) would defeat. The
 * copy is dated just before the original (a millisecond), so at worst a few more files are read.
 */
async function copyIndex(from: string, to: string): Promise<boolean> {
  try {
    const info = await stat(from);
    await copyFile(from, to);
    const earlier = new Date(info.mtimeMs - 1);
    await utimes(to, earlier, earlier);
    return true;
  } catch {
    return false;
  }
}

/** The tree of a commit. */
export async function treeOf(cwd: string, commit: string): Promise<string> {
  return (await git(cwd, ['rev-parse', `${commit}^{tree}`])).trim();
}

/** HEAD, or undefined on a branch with no commit yet. */
export async function headCommit(cwd: string): Promise<string | undefined> {
  const result = await runGit(cwd, ['rev-parse', '-q', '--verify', 'HEAD']);
  return result.code === 0 ? result.stdout.toString('utf8').trim() : undefined;
}
