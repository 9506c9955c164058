import { lstat, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { git } from '../git/runGit';
import { verifiedRepository } from '../git/verifiedRepository';
import type { WorktreeManifest } from './worktreeManifest';

/**
 * A worktree record the product will not act on: it names a folder, branch or repository that
 * is not one of its own worktrees. The records live beside the threads, which may be in the
 * workspace (the default), where a command could forge one; removing or committing what a forged
 * one names would let that command delete or write outside the sandbox.
 */
export class WorktreeRecordRefused extends Error {
  override readonly name = 'WorktreeRecordRefused';
}

/** What a run id may be in a file name: no separators, dots or spaces (the product makes `r_` + hex). */
const SAFE_NAME = /^[A-Za-z0-9_-]{1,80}$/;

export function isSafeRunId(runId: string): boolean {
  return SAFE_NAME.test(runId);
}

/**
 * A record's names are the ones the product gives its own worktrees: the folder `<root>/<runId>`,
 * the branch `subagents/<runId>`. Checked on the text alone (no git), so a forged record is
 * refused before anything runs for it.
 */
export function recordShapeProblem(root: string, manifest: WorktreeManifest): string | undefined {
  if (!isSafeRunId(manifest.runId)) return `its run id "${manifest.runId}" is not one the product makes`;
  if (manifest.path !== join(root, manifest.runId))
    return `it names the folder ${manifest.path}, not ${join(root, manifest.runId)} (the worktrees root's folder for its run)`;
  if (manifest.branch !== `subagents/${manifest.runId}`) return `it names the branch ${manifest.branch}, not subagents/${manifest.runId}`;
  return undefined;
}

/** Where a worktree folder stands: git lists it as a worktree of the record's repository, it is gone, or it is something else. */
export type WorktreeStanding = { kind: 'listed'; repo: string } | { kind: 'gone'; repo: string };

/**
 * Checks a record against git before anything is removed or committed for it: its repository is
 * a real one (a verified git folder at its top), and its folder, under the worktrees `root`, is
 * either listed by that repository's `git worktree list --porcelain` or gone. Anything else throws
 * WorktreeRecordRefused with why.
 */
export async function checkWorktreeRecord(root: string, manifest: WorktreeManifest): Promise<WorktreeStanding> {
  const shape = recordShapeProblem(root, manifest);
  if (shape) throw new WorktreeRecordRefused(shape);
  const repo = await verifiedRepository(manifest.repo).catch((error: unknown) => {
    throw new WorktreeRecordRefused(
      `its repository ${manifest.repo} is not one the product uses: ${error instanceof Error ? error.message : String(error)}`,
    );
  });
  if (!repo || repo.top !== manifest.repo) throw new WorktreeRecordRefused(`${manifest.repo} is not the top of a repository`);
  const info = await lstat(manifest.path).catch(() => undefined);
  if (!info) return { kind: 'gone', repo: repo.top };
  if (!info.isDirectory()) throw new WorktreeRecordRefused(`${manifest.path} is not a folder`);
  if (!(await listedWorktrees(repo.top)).has(manifest.path))
    throw new WorktreeRecordRefused(`git does not list ${manifest.path} as a worktree of ${repo.top}`);
  // A linked worktree's git folder is writable by its run's commands: it must still be this repository's.
  const inside = await verifiedRepository(manifest.path).catch(() => undefined);
  if (inside?.top !== manifest.path || inside.commonDir !== repo.commonDir)
    throw new WorktreeRecordRefused(`the git folder of ${manifest.path} is no longer that of a worktree of ${repo.top}`);
  return { kind: 'listed', repo: repo.top };
}

/** The folders `git worktree list --porcelain` names for a repository, as real paths (the main work tree left out). */
export async function listedWorktrees(repo: string): Promise<Set<string>> {
  const listing = await git(repo, ['worktree', 'list', '--porcelain', '-z']);
  const out = new Set<string>();
  for (const field of listing.split('\0')) {
    if (!field.startsWith('worktree ')) continue;
    const path = field.slice('worktree '.length);
    if (path === repo) continue;
    out.add(await realpath(path).catch(() => path));
  }
  return out;
}
