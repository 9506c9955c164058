import { createReadStream } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import pLimit from 'p-limit';
import { readBytesInside } from '../../platform/files/readInside';
import { runGit } from '../git/runGit';
import { walkWorkspace } from '../../platform/files/workspaceFiles';
import { MAX_SNAPSHOT_BYTES, type SnapshotStore } from './snapshotStore';

/** What says a file is unchanged without reading it: the same size, times and inode. */
export interface FileStamp {
  size: number;
  mtimeNs: bigint;
  ctimeNs: bigint;
  ino: bigint;
}

export interface FileState extends FileStamp {
  hash: string;
  /** When the stamp was taken (ns): a file changed within a clock tick of it may change again unseen. */
  stampedAt: bigint;
}

/**
 * File times come from the kernel's coarse clock: two writes within one tick, of the same size,
 * leave the same stamp. A stamp taken that close to the file's time is not trusted (git's "racy"
 * entries): the file is read again.
 */
const RACY_NS = 50_000_000n;

/** The workspace's files whose before-content git cannot give back, as they were before a command. */
export interface TreeState {
  /** Workspace-relative paths: the dirty and untracked files in a repository, every file elsewhere. */
  files: ReadonlyMap<string, FileState>;
  /** In a repository: HEAD (undefined on a branch with no commit yet). */
  head: string | undefined;
  /** Where the workspace is in its repository; undefined when it is not in one. */
  repo: { prefix: string } | undefined;
}

/** Files a walk of a workspace with no repository looks at, at most. */
const MAX_WALK = 200_000;
const READ_LIMIT = pLimit(16);

export function stampOf(info: { size: bigint; mtimeNs: bigint; ctimeNs: bigint; ino: bigint }): FileStamp {
  return { size: Number(info.size), mtimeNs: info.mtimeNs, ctimeNs: info.ctimeNs, ino: info.ino };
}

export function sameStamp(a: FileStamp, b: FileStamp): boolean {
  return a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs && a.ino === b.ino;
}

/** A regular file's stamp, or undefined for anything else (missing, a folder, a link). */
export async function stampAt(abs: string): Promise<FileStamp | undefined> {
  const info = await lstat(abs, { bigint: true }).catch(() => undefined);
  return info?.isFile() ? stampOf(info) : undefined;
}

/**
 * Lists the files a command may change that git cannot give back: in a repository, `git status`'s
 * dirty and untracked files (what .gitignore ignores is left out, as git leaves it out); elsewhere
 * every file a walk finds (honouring .gitignore too).
 */
export async function listVolatile(root: string, repo: TreeState['repo'], exclude: readonly string[]): Promise<string[]> {
  if (!repo) {
    const out: string[] = [];
    const walk = walkWorkspace(root, { signal: new AbortController().signal, maxFiles: MAX_WALK });
    for await (const rel of walk) if (!excluded(rel, exclude)) out.push(rel);
    return out;
  }
  const args = [
    'status',
    '--porcelain=v1',
    '-z',
    '--untracked-files=all',
    '--ignore-submodules=all',
    '--no-renames',
    '--',
    '.',
    ...exclude.map((e) => `:(exclude)${e}`),
  ];
  const result = await runGit(root, args);
  if (result.code !== 0) throw new Error(`git status failed: ${result.stderr}`);
  const out: string[] = [];
  for (const record of result.stdout.toString('utf8').split('\0')) {
    if (record.length < 4) continue;
    const top = record.slice(3);
    if (!top.startsWith(repo.prefix) || top.endsWith('/')) continue;
    out.push(top.slice(repo.prefix.length));
  }
  return out;
}

function excluded(rel: string, exclude: readonly string[]): boolean {
  return exclude.some((e) => rel === e || rel.startsWith(`${e}/`));
}

/**
 * The state of `rels` now: a file whose stamp matches `cache` is not read again; others are read,
 * hashed and kept in the snapshot store (over MAX_SNAPSHOT_BYTES: hashed, not kept). `cache` takes
 * what was read.
 */
export async function stateOf(
  root: string,
  rels: readonly string[],
  cache: Map<string, FileState>,
  snapshots: SnapshotStore,
): Promise<Map<string, FileState>> {
  const out = new Map<string, FileState>();
  await Promise.all(
    rels.map((rel) =>
      READ_LIMIT(async () => {
        const state = await fileState(root, rel, cache.get(rel), snapshots);
        if (state) {
          out.set(rel, state);
          cache.set(rel, state);
        } else cache.delete(rel);
      }),
    ),
  );
  return out;
}

async function fileState(
  root: string,
  rel: string,
  cached: FileState | undefined,
  snapshots: SnapshotStore,
): Promise<FileState | undefined> {
  const abs = join(root, rel);
  const stamp = await stampAt(abs);
  if (!stamp) return undefined;
  if (cached && sameStamp(cached, stamp) && cached.mtimeNs + RACY_NS < cached.stampedAt) return cached;
  const stampedAt = BigInt(Date.now()) * 1_000_000n;
  const hash = await keep(root, abs, stamp.size, snapshots);
  return hash === undefined ? undefined : { ...stamp, hash, stampedAt };
}

/** Reads, hashes and keeps a file; a large one is hashed as a stream and not kept. */
export async function keep(root: string, abs: string, size: number, snapshots: SnapshotStore): Promise<string | undefined> {
  try {
    if (size > MAX_SNAPSHOT_BYTES) return await streamHash(abs);
    return await snapshots.put(await readBytesInside(root, abs));
  } catch {
    return undefined; // gone, or swapped for something that is not a regular file: not a file now
  }
}

function streamHash(abs: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(abs)
      .on('data', (d) => hash.update(d))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}
