import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { errorText } from '../../../shared/errorText';
import { putFile } from '../attribution/putFile';
import { seeFile } from '../attribution/seenFile';
import { runGit } from '../git/runGit';
import type { Workspace } from '../../ports';
import { resolveWorkspacePath } from '../../access/paths/workspacePath';
import { blobAt, diffSummary } from './worktreeGit';
import type { WorktreeManifest } from './worktreeManifest';

export interface ApplyResult {
  /** Workspace-relative paths that now have the run's content (or were merged cleanly). */
  applied: string[];
  /** Files that could not be merged cleanly: what happened to each. Nothing is lost: the run's version stays on its branch. */
  conflicts: { path: string; reason: string }[];
}

/**
 * Merges a finished worktree run into the workspace, file by file, three ways: the run's start
 * (base), what the workspace has now (ours, unsaved editor text included) and the run's end
 * (theirs). A file the workspace did not touch takes the run's version; one both changed is merged
 * by `git merge-file`, and overlapping changes are written with conflict markers; what cannot be
 * merged as text keeps the workspace's version and is listed.
 */
export async function applyWorktree(manifest: WorktreeManifest & { final: string }, workspace: Workspace): Promise<ApplyResult> {
  const result: ApplyResult = { applied: [], conflicts: [] };
  const files = await diffSummary(manifest.repo, manifest.base, manifest.final);
  const scratch = await mkdtemp(join(tmpdir(), 'subagents-merge-'));
  try {
    for (const file of files) {
      if (!file.path.startsWith(manifest.prefix)) {
        result.conflicts.push({
          path: file.path,
          reason: `it is outside the workspace folder, so it was not applied (it is on branch ${manifest.branch})`,
        });
        continue;
      }
      const rel = file.path.slice(manifest.prefix.length);
      try {
        const outcome = await applyFile(manifest, workspace, file.path, rel, scratch);
        if (outcome === undefined) result.applied.push(rel);
        else result.conflicts.push({ path: rel, reason: outcome });
      } catch (error) {
        result.conflicts.push({ path: rel, reason: `it could not be applied: ${errorText(error)}` });
      }
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return result;
}

/** Applies one file; undefined when it went in cleanly, else the conflict in a sentence. */
async function applyFile(
  manifest: WorktreeManifest & { final: string },
  workspace: Workspace,
  top: string,
  rel: string,
  scratch: string,
): Promise<string | undefined> {
  const where = await resolveWorkspacePath(workspace.root, rel);
  if (!where.ok) return where.error;
  const [base, theirs, now] = await Promise.all([
    blobAt(manifest.repo, manifest.base, top),
    blobAt(manifest.repo, manifest.final, top),
    seeFile(workspace, where.abs),
  ]);
  const ours = now.bytes;
  if (same(ours, theirs)) return undefined;
  if (same(ours, base)) {
    await putFile(workspace, rel, theirs);
    return undefined;
  }
  const kept = `both changed it; the workspace's version is kept (the run's is on branch ${manifest.branch})`;
  if (theirs === null) return `the run deleted it and the workspace changed it since: ${kept}`;
  if (ours === null)
    return `the run changed it and it was deleted in the workspace since; it stays deleted (the run's version is on branch ${manifest.branch})`;
  if ([base, ours, theirs].some((b) => b !== null && b.subarray(0, 8192).includes(0))) return `it is binary and ${kept}`;
  const paths = { ours: join(scratch, 'ours'), base: join(scratch, 'base'), theirs: join(scratch, 'theirs') };
  await Promise.all([writeFile(paths.ours, ours), writeFile(paths.base, base ?? ''), writeFile(paths.theirs, theirs)]);
  const merged = await runGit(
    scratch,
    ['merge-file', '-p', '-L', 'workspace', '-L', 'start of the run', '-L', `run ${manifest.runId}`, paths.ours, paths.base, paths.theirs],
    { noRepository: true },
  );
  if (merged.code === null || merged.code < 0 || merged.code > 127)
    return `git merge-file failed (${merged.stderr || `exit code ${merged.code}`}): ${kept}`;
  await putFile(workspace, rel, merged.stdout);
  return merged.code === 0
    ? undefined
    : `both changed the same lines: the file now holds both versions between conflict markers (<<<<<<< workspace … >>>>>>> run ${manifest.runId}); resolve them`;
}

function same(a: Buffer | null, b: Buffer | null): boolean {
  return a === null || b === null ? a === b : a.equals(b);
}
