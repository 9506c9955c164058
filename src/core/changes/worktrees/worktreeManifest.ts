import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { lazySchema } from '../../../shared/lazySchema';

const fileSummarySchema = lazySchema(() =>
  z.object({ path: z.string(), status: z.enum(['added', 'modified', 'deleted']), added: z.number(), removed: z.number() }),
);

/** A worktree run, as kept beside its worktree: what it started from and where it stands. */
export const worktreeManifestSchema = lazySchema(() =>
  z.object({
    version: z.literal(1),
    runId: z.string(),
    threadId: z.string(),
    agent: z.string(),
    /** The top folder of the workspace's repository, where apply merges to. */
    repo: z.string(),
    /** The workspace root the run was started from (inside `repo`). */
    workspaceRoot: z.string(),
    /** The workspace's place in the repository ('' or `sub/dir/`). */
    prefix: z.string(),
    /** The worktree's top folder. */
    path: z.string(),
    branch: z.string(),
    /** The commit the run started from: HEAD plus the workspace's uncommitted and untracked changes. */
    base: z.string(),
    /** `working`: the run is on it; `pending`: it ended with changes, waiting for Apply or Discard. */
    state: z.enum(['working', 'pending']),
    /** The process working in it (host:pid), so start-up cleanup leaves a live one alone. */
    owner: z.string(),
    createdAt: z.number(),
    /** When pending: the commit of the run's end state, and what changed from base. */
    final: z.string().optional(),
    files: z.array(fileSummarySchema).optional(),
  }),
);
export type WorktreeManifest = z.infer<typeof worktreeManifestSchema>;
export type WorktreeFileSummary = z.infer<typeof fileSummarySchema>;

export const OWNER = `${hostname()}:${process.pid}`;

export function manifestPath(dir: string, runId: string): string {
  return join(dir, `${runId}.json`);
}

export async function readManifest(dir: string, runId: string): Promise<WorktreeManifest | undefined> {
  const text = await readFile(manifestPath(dir, runId), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const parsed = worktreeManifestSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Written to a temp file and renamed: a reader sees the old manifest or the new one. */
export async function writeManifest(dir: string, manifest: WorktreeManifest): Promise<void> {
  const target = manifestPath(dir, manifest.runId);
  const temp = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temp, JSON.stringify(manifest, null, 2));
  await rename(temp, target);
}

export function removeManifest(dir: string, runId: string): Promise<void> {
  return rm(manifestPath(dir, runId), { force: true });
}

/** Every readable manifest in `dir`. */
export async function listManifests(dir: string): Promise<WorktreeManifest[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const out: WorktreeManifest[] = [];
  for (const name of names) {
    if (!name.endsWith('.json')) continue;
    const manifest = await readManifest(dir, name.slice(0, -'.json'.length));
    if (manifest) out.push(manifest);
  }
  return out;
}
