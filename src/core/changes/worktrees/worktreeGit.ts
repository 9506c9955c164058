import { mkdir, readFile, rm } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { git, runGit } from '../git/runGit';
import type { WorktreeFileSummary } from './worktreeManifest';

/**
 * What a command in the worktree may write besides the worktree: its own git folder (index, HEAD),
 * the shared object store (new commits), and its branch's ref and log folders (a commit moves the
 * branch). The main work tree, the other branches, hooks and config stay read-only.
 */
export async function worktreeWritablePaths(worktree: string): Promise<string[]> {
  const gitDir = (await git(worktree, ['rev-parse', '--absolute-git-dir'])).trim();
  const common = (await git(worktree, ['rev-parse', '--path-format=absolute', '--git-common-dir'])).trim();
  const refs = join(common, 'refs', 'heads', 'subagents');
  const logs = join(common, 'logs', 'refs', 'heads', 'subagents');
  await mkdir(logs, { recursive: true });
  return [worktree, gitDir, join(common, 'objects'), refs, logs];
}

/** The files that differ between two commits, with their line counts (0 and 0 for binary files), paths from the repository's top. */
export async function diffSummary(cwd: string, from: string, to: string): Promise<WorktreeFileSummary[]> {
  const [numstat, status] = await Promise.all([
    git(cwd, ['diff', '--numstat', '-z', '--no-renames', from, to]),
    git(cwd, ['diff', '--name-status', '-z', '--no-renames', from, to]),
  ]);
  const counts = new Map<string, { added: number; removed: number }>();
  for (const record of numstat.split('\0')) {
    const m = /^(-|\d+)\t(-|\d+)\t(.+)$/s.exec(record);
    if (m) counts.set(m[3]!, { added: m[1] === '-' ? 0 : Number(m[1]), removed: m[2] === '-' ? 0 : Number(m[2]) });
  }
  const parts = status.split('\0');
  const out: WorktreeFileSummary[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const letter = parts[i]!;
    const path = parts[i + 1]!;
    const kind = letter === 'A' ? 'added' : letter === 'D' ? 'deleted' : 'modified';
    out.push({ path, status: kind, ...(counts.get(path) ?? { added: 0, removed: 0 }) });
  }
  return out;
}

/** A file's content at a commit, or null when it has none there. */
export async function blobAt(cwd: string, commit: string, path: string): Promise<Buffer | null> {
  const result = await runGit(cwd, ['cat-file', 'blob', `${commit}:${path}`]);
  return result.code === 0 ? result.stdout : null;
}

/**
 * Takes a worktree away: `git worktree remove`, and where that fails (a half-removed one), the
 * folder and git's record of it. `branch` is deleted unless kept. Only for a folder git listed as
 * a worktree of `repo` (worktreeTrust.ts): `path` is removed whatever it holds.
 */
export async function removeWorktree(repo: string, path: string, branch: string | undefined): Promise<void> {
  const removed = await runGit(repo, ['worktree', 'remove', '--force', '--force', path]).catch(() => undefined);
  if (removed?.code !== 0) {
    await rm(path, { recursive: true, force: true });
    await runGit(repo, ['worktree', 'prune']).catch(() => undefined);
  }
  if (branch) await runGit(repo, ['branch', '-D', branch]).catch(() => undefined);
}

/** A worktree whose folder is gone: git's record of it pruned, `branch` deleted unless kept. */
export async function forgetWorktree(repo: string, branch: string | undefined): Promise<void> {
  await runGit(repo, ['worktree', 'prune']).catch(() => undefined);
  if (branch) await runGit(repo, ['branch', '-D', branch]).catch(() => undefined);
}

/** The repository a worktree folder belongs to, read from its `.git` file (for a folder no manifest names). */
export async function repoOfWorktreeFolder(path: string): Promise<string | undefined> {
  const text = await readFile(join(path, '.git'), 'utf8').catch(() => undefined);
  const gitDir = /^gitdir: (.+)$/m.exec(text ?? '')?.[1]?.trim();
  if (!gitDir || !isAbsolute(gitDir)) return undefined;
  // <repo>/.git/worktrees/<name>
  return join(gitDir, '..', '..', '..');
}
