import { lstat, mkdir, readdir, realpath, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isInside } from '../../platform/files/isInside';
import { commitWorkingTree, headCommit, treeOf } from '../git/commitWorkingTree';
import { git, repositoryOf } from '../git/runGit';
import { isProcessAlive } from '../../platform/files/fileLock';
import type { Workspace } from '../../ports';
import { applyWorktree, type ApplyResult } from './applyWorktree';
import { diffSummary, forgetWorktree, removeWorktree, repoOfWorktreeFolder, worktreeWritablePaths } from './worktreeGit';
import { listManifests, OWNER, readManifest, removeManifest, writeManifest, type WorktreeManifest } from './worktreeManifest';
import { checkWorktreeRecord, isSafeRunId, listedWorktrees, WorktreeRecordRefused } from './worktreeTrust';

/** What start-up cleanup did, and what it would not touch (a record or folder that is not one of its worktrees), each with why. */
export interface CleanupReport {
  removed: string[];
  finished: string[];
  refused: { name: string; reason: string }[];
}

/** A worktree a run works in: where its tools are confined, and what its commands may write. */
export interface WorktreeHandle {
  manifest: WorktreeManifest;
  /** The run's root: the worktree's top, or the workspace's subfolder in it. */
  root: string;
  /** For the command sandbox: the worktree and the repository's git paths it needs. */
  writable: string[];
  /** The wall time its checkout was done: its files' times are not later. */
  readyAt: number;
}

/** A profile asked for a worktree and none can be made: the sentence says why and what to do. */
export class WorktreeError extends Error {
  override readonly name = 'WorktreeError';
}

/**
 * The worktrees of one thread storage (`<threads>/worktrees`): one per run of a profile with
 * `isolation: "worktree"`, on a branch named after the run, with a manifest beside it that
 * survives a reload (a pending apply waits there).
 */
export class Worktrees {
  constructor(readonly dir: string) {}

  /**
   * A worktree of the workspace as it is: HEAD plus its uncommitted and untracked changes (a
   * commit made through a temporary index), checked out on `subagents/<runId>`.
   */
  async create(request: { workspaceRoot: string; runId: string; threadId: string; agent: string }): Promise<WorktreeHandle> {
    const workspace = await realpath(request.workspaceRoot);
    const repo = await repositoryOf(workspace);
    if (!repo)
      throw new WorktreeError(
        `the workspace ${workspace} is not in a git repository. Run "git init" there (and commit), or take "isolation: worktree" off the profile`,
      );
    await mkdir(this.dir, { recursive: true });
    const dir = await realpath(this.dir);
    if (isInside(workspace, dir) || isInside(repo.top, dir)) {
      throw new WorktreeError(
        `worktrees are kept beside the threads (${dir}), which are inside the workspace; keep the threads elsewhere (the CLI's --storage DIR)`,
      );
    }
    const base = (
      await commitWorkingTree(repo.top, await headCommit(repo.top), `subagents: the workspace when run ${request.runId} started`, dir)
    ).commit;
    const manifest: WorktreeManifest = {
      version: 1,
      runId: request.runId,
      threadId: request.threadId,
      agent: request.agent,
      repo: repo.top,
      workspaceRoot: workspace,
      prefix: repo.prefix,
      path: join(dir, request.runId),
      branch: `subagents/${request.runId}`,
      base,
      state: 'working',
      owner: OWNER,
      createdAt: Date.now(),
    };
    // The manifest first: a crash after it leaves nothing the start-up cleanup cannot find.
    await writeManifest(dir, manifest);
    try {
      await git(repo.top, ['worktree', 'add', '--quiet', '-b', manifest.branch, manifest.path, base]);
      const readyAt = Date.now();
      return { manifest, root: join(manifest.path, manifest.prefix), writable: await worktreeWritablePaths(manifest.path), readyAt };
    } catch (error) {
      // What git made of it goes; a folder git does not list stays (cleanup reports it).
      await this.discard(manifest).catch(() => removeManifest(dir, manifest.runId));
      throw error;
    }
  }

  /**
   * The run ended: its worktree as it is now becomes the branch's last commit. No change from
   * the start: the worktree and its branch go (returns undefined). Else the manifest is pending.
   */
  async finish(manifest: WorktreeManifest): Promise<WorktreeManifest | undefined> {
    if ((await checkWorktreeRecord(await this.root(), manifest)).kind !== 'listed')
      throw new WorktreeRecordRefused(`its worktree ${manifest.path} is gone`);
    const wt = manifest.path;
    const { commit, tree } = await commitWorkingTree(
      wt,
      (await headCommit(wt)) ?? manifest.base,
      `subagents: the end of run ${manifest.runId}`,
      this.dir,
    );
    if (tree === (await treeOf(wt, manifest.base))) {
      await this.discard(manifest);
      return undefined;
    }
    await git(wt, ['update-ref', `refs/heads/${manifest.branch}`, commit]);
    // Its index follows, so `git status` in the worktree reads clean.
    await git(wt, ['read-tree', commit]);
    const pending: WorktreeManifest = { ...manifest, state: 'pending', final: commit, files: await diffSummary(wt, manifest.base, commit) };
    await writeManifest(this.dir, pending);
    return pending;
  }

  /**
   * Apply to workspace: the worktree as it is now (later edits in it count) merged into `workspace`
   * three ways (applyWorktree.ts). Then the worktree goes; its branch stays when there were
   * conflicts, so the run's version is never lost. Undefined when the run has no pending worktree.
   */
  async apply(runId: string, workspace: Workspace): Promise<(ApplyResult & { keptBranch?: string }) | undefined> {
    const manifest = await this.get(runId);
    if (manifest?.state !== 'pending') return undefined;
    // Merged only into the workspace (and repository) it was made from: the record says which, and is checked.
    const root = await realpath(workspace.root);
    const here = await repositoryOf(root);
    if (root !== manifest.workspaceRoot || here?.top !== manifest.repo || here.prefix !== manifest.prefix) {
      throw new WorktreeRecordRefused(
        `it was made from ${manifest.workspaceRoot} (repository ${manifest.repo}), not from this workspace ${root}`,
      );
    }
    const current = await this.finish(manifest);
    if (!current?.final) return { applied: [], conflicts: [] };
    const result = await applyWorktree({ ...current, final: current.final }, workspace);
    const keep = result.conflicts.length > 0;
    await this.discard(current, { keepBranch: keep });
    return keep ? { ...result, keptBranch: current.branch } : result;
  }

  get(runId: string): Promise<WorktreeManifest | undefined> {
    return isSafeRunId(runId) ? readManifest(this.dir, runId) : Promise.resolve(undefined);
  }

  list(): Promise<WorktreeManifest[]> {
    return listManifests(this.dir);
  }

  /**
   * Removes the worktree, its branch (unless `keepBranch`) and its manifest, once git confirms the
   * record names one of this root's worktrees (or one that is gone); else WorktreeRecordRefused,
   * and nothing is removed.
   */
  async discard(manifest: WorktreeManifest, options: { keepBranch?: boolean } = {}): Promise<void> {
    const standing = await checkWorktreeRecord(await this.root(), manifest);
    const branch = options.keepBranch ? undefined : manifest.branch;
    if (standing.kind === 'listed') await removeWorktree(standing.repo, manifest.path, branch);
    else await forgetWorktree(standing.repo, branch);
    await removeManifest(this.dir, manifest.runId);
  }

  /** The worktrees root as a real path (records name folders under it so). */
  private async root(): Promise<string> {
    return realpath(this.dir);
  }

  /**
   * At start-up: worktrees of threads that are gone are removed; one a process left working (it
   * ended, or crashed) is finished as the run would have been (pending, or removed when it changed
   * nothing); folders no manifest names are removed. A pending one stays for Apply or Discard.
   */
  async cleanup(threadExists: (threadId: string) => Promise<boolean>): Promise<CleanupReport> {
    const report: CleanupReport = { removed: [], finished: [], refused: [] };
    const info = await lstat(this.dir).catch(() => undefined);
    if (!info) return report;
    // A link in the folder's place (a command may have made one) would turn this clean-up on another folder.
    if (!info.isDirectory()) {
      report.refused.push({
        name: this.dir,
        reason: `${this.dir} is a symbolic link or no folder, so no worktree was cleaned up; remove it (the product makes it again)`,
      });
      return report;
    }
    const root = await this.root();
    const manifests = await this.list();
    for (const m of manifests) {
      try {
        if (!(await threadExists(m.threadId))) {
          await this.discard(m);
          report.removed.push(m.runId);
        } else if (m.state === 'working' && !ownerAlive(m.owner)) {
          const done = await this.finish(m).catch((error: unknown) =>
            error instanceof WorktreeRecordRefused ? Promise.reject(error) : undefined,
          );
          (done ? report.finished : report.removed).push(m.runId);
          if (!done) await this.discard(m);
        }
      } catch (error) {
        if (!(error instanceof WorktreeRecordRefused)) throw error;
        report.refused.push({
          name: `${m.runId}.json`,
          reason: `the worktree record ${join(this.dir, `${m.runId}.json`)} was not acted on: ${error.message}. Nothing was removed; delete that file if you did not expect it.`,
        });
      }
    }
    const known = new Set(manifests.map((m) => m.runId));
    for (const name of await readdir(root).catch(() => [] as string[])) {
      const path = join(root, name);
      if (name.endsWith('.json') || known.has(name)) continue;
      const info = await lstat(path).catch(() => undefined);
      if (!info?.isDirectory()) {
        if (info?.isFile() && /^index\.\d+\.[0-9a-f]+$|\.tmp$/.test(name)) await rm(path, { force: true });
        continue;
      }
      // A folder no record names: removed only when git lists it as a worktree of its repository.
      const repo = await ownerRepository(path);
      if (repo) {
        await removeWorktree(repo, path, undefined);
        report.removed.push(name);
      } else {
        report.refused.push({
          name,
          reason: `${path} is in the worktrees folder but git lists it as no repository's worktree, so it was left in place; remove it yourself if it is not yours.`,
        });
      }
    }
    return report;
  }
}

/** The repository that lists `path` as one of its worktrees (read from the folder's `.git` file, then confirmed by git), or undefined. */
async function ownerRepository(path: string): Promise<string | undefined> {
  const named = await repoOfWorktreeFolder(path);
  const repo = named ? await realpath(named).catch(() => undefined) : undefined;
  if (!repo) return undefined;
  const listed = await listedWorktrees(repo).catch(() => new Set<string>());
  return listed.has(path) ? repo : undefined;
}

/** The process working in a worktree is still alive: this one, or another of this machine. */
function ownerAlive(owner: string): boolean {
  if (owner === OWNER) return true;
  const at = owner.lastIndexOf(':');
  return owner.slice(0, at) === OWNER.slice(0, OWNER.lastIndexOf(':')) && isProcessAlive(Number(owner.slice(at + 1)));
}
