import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { runGit, repositoryOf } from '../git/runGit';
import { placeholdersUnder } from '../../access/sandbox/sandboxPlaceholders';
import type { SnapshotStore } from './snapshotStore';
import { listVolatile, stateOf, type FileState, type TreeState } from './treeState';

/** A file a command changed: its content hash before and after (null: absent). */
export interface TreeChange {
  rel: string;
  beforeHash: string | null;
  afterHash: string | null;
}

/**
 * Finds what a command changed in one workspace, by comparing its files before and after: in a git
 * repository, the dirty and untracked files are snapshotted before (clean tracked files need not
 * be: git has them), and after, `git status` and HEAD say which files to look at; elsewhere every
 * file (.gitignore honoured). A file whose size, times and inode did not change is not read again,
 * here or in the next command: the cache remembers its hash.
 */
export class WorkspaceWatch {
  private readonly cache = new Map<string, FileState>();
  private repo: Promise<TreeState['repo']> | undefined;

  /**
   * @param exclude workspace-relative folders left out (the thread storage, when it is inside the workspace)
   */
  constructor(
    readonly root: string,
    private readonly snapshots: SnapshotStore,
    private readonly exclude: readonly string[] = [],
  ) {}

  async before(): Promise<TreeState> {
    const repo = await this.repository();
    const [rels, head] = await Promise.all([this.listVolatile(repo), repo ? headOf(this.root) : undefined]);
    const files = await stateOf(this.root, rels, this.cache, this.snapshots);
    this.snapshots.retain(
      this,
      [...this.cache.values()].map((f) => f.hash),
    );
    return { files, head, repo };
  }

  async after(before: TreeState): Promise<TreeChange[]> {
    const { repo } = before;
    const [now, head] = await Promise.all([this.listVolatile(repo), repo ? headOf(this.root) : undefined]);
    const candidates = new Set([...before.files.keys(), ...now]);
    if (repo && before.head && head && head !== before.head)
      for (const rel of await changedBetween(this.root, repo.prefix, before.head, head)) candidates.add(rel);
    const after = await stateOf(this.root, [...candidates], this.cache, this.snapshots);
    const changes: TreeChange[] = [];
    const fromGit: string[] = [];
    for (const rel of candidates) {
      const was = before.files.get(rel);
      const is = after.get(rel)?.hash ?? null;
      if (!was) fromGit.push(rel);
      else if (was.hash !== is) changes.push({ rel, beforeHash: was.hash, afterHash: is });
    }
    // Not dirty before: a clean tracked file (its content is HEAD's) or none at all.
    const committed = repo && before.head ? await this.blobs(before.head, repo.prefix, fromGit) : new Map<string, string>();
    for (const rel of fromGit) {
      const was = committed.get(rel) ?? null;
      const is = after.get(rel)?.hash ?? null;
      if (was !== is) changes.push({ rel, beforeHash: was, afterHash: is });
    }
    // Only regular files are compared: a symbolic link or a folder in a file's place is not a deletion.
    const kept: TreeChange[] = [];
    for (const c of changes)
      if (
        c.afterHash !== null ||
        !(await lstat(join(this.root, c.rel)).then(
          () => true,
          () => false,
        ))
      )
        kept.push(c);
    return kept.sort((a, b) => (a.rel < b.rel ? -1 : 1));
  }

  /** The files a command may change, without the sandbox's placeholders (sandboxPlaceholders.ts): those are no one's change. */
  private async listVolatile(repo: TreeState['repo']): Promise<string[]> {
    const rels = await listVolatile(this.root, repo, this.exclude);
    const placeholders = placeholdersUnder(this.root);
    return placeholders.size === 0 ? rels : rels.filter((rel) => !placeholders.has(rel));
  }

  private repository(): Promise<TreeState['repo']> {
    // A refused git folder (verifiedRepository.ts) is asked again next time: the user may have fixed it.
    this.repo ??= repositoryOf(this.root).then(
      (r) => (r ? { prefix: r.prefix } : undefined),
      (error: unknown) => {
        this.repo = undefined;
        throw error;
      },
    );
    return this.repo;
  }

  /** The content of `rels` at `rev`, kept as snapshots: hash by path (absent paths are left out). */
  private async blobs(rev: string, prefix: string, rels: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    if (rels.length === 0) return out;
    const input = rels.map((rel) => `${rev}:${prefix}${rel}\n`).join('');
    const result = await runGit(this.root, ['cat-file', '--batch'], { input });
    if (result.code !== 0) throw new Error(`git cat-file failed: ${result.stderr}`);
    const data = result.stdout;
    let at = 0;
    for (const rel of rels) {
      const eol = data.indexOf(0x0a, at);
      if (eol < 0) break;
      const header = data.subarray(at, eol).toString('utf8');
      at = eol + 1;
      const m = /^[0-9a-f]+ (\w+) (\d+)$/.exec(header);
      if (!m) continue; // "<rev>:<path> missing": not in that commit
      const size = Number(m[2]);
      const content = data.subarray(at, at + size);
      at += size + 1;
      if (m[1] === 'blob') out.set(rel, await this.snapshots.put(content));
    }
    return out;
  }
}

async function headOf(root: string): Promise<string | undefined> {
  const result = await runGit(root, ['rev-parse', '-q', '--verify', 'HEAD']);
  return result.code === 0 ? result.stdout.toString('utf8').trim() : undefined;
}

async function changedBetween(root: string, prefix: string, from: string, to: string): Promise<string[]> {
  const result = await runGit(root, ['diff', '--name-only', '-z', '--no-renames', from, to, '--', '.']);
  if (result.code !== 0) return [];
  return result.stdout
    .toString('utf8')
    .split('\0')
    .filter((p) => p.startsWith(prefix) && p.length > prefix.length)
    .map((p) => p.slice(prefix.length));
}
