import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSnapshotStore } from '../src/core/changes/attribution/fileSnapshotStore';
import { listBlobs } from '../src/core/changes/attribution/snapshotCap';
import { WorkspaceWatch } from '../src/core/changes/attribution/workspaceWatch';
import { runGit } from '../src/core/changes/git/runGit';
import { Worktrees } from '../src/core/changes/worktrees/worktrees';
import { formatMs, summarize } from './stats';

const DIRS = 100;
const PER_DIR = 100;
const DIRTY = 50;
const UNTRACKED = 50;

/** 10k files of about 1 KB in 100 folders, each a little different (a source tree's shape, not its size). */
function makeTree(root: string): void {
  for (let d = 0; d < DIRS; d++) {
    const dir = join(root, `pkg${d}`, 'src');
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < PER_DIR; f++) writeFileSync(join(dir, `file${f}.ts`), `// ${d}/${f}\n${'export const value = 42;\n'.repeat(40)}`);
  }
  writeFileSync(join(root, '.gitignore'), 'node_modules/\n');
}

function git(root: string, ...args: string[]): void {
  execFileSync('git', args, {
    cwd: root,
    stdio: 'ignore',
    env: { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@b' },
  });
}

async function storeBytes(dir: string): Promise<number> {
  return (await listBlobs(join(dir, 'objects'))).reduce((n, b) => n + b.size, 0);
}

const kb = (bytes: number): string => (bytes < 1024 * 1024 ? `${Math.round(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

/**
 * `npm run bench`'s figures for finding what a command changed (src/core/changes/attribution/): the work
 * before and after one command that changes one file, on a 10k-file tree, in a git repository
 * (with 50 dirty and 50 untracked files) and in a plain folder; the first command (nothing cached
 * yet) and the next ones; the snapshot bytes it keeps; and the start of a worktree run there.
 */
export async function changesBench(runs = 15): Promise<string[]> {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'subagents-bench-changes-')));
  const lines: string[] = [
    `\nCommand-made changes on a ${DIRS * PER_DIR}-file tree (${runs} commands after the first; the command itself not counted):`,
  ];
  try {
    for (const kind of ['git', 'plain'] as const) {
      const root = join(base, kind);
      makeTree(root);
      if (kind === 'git') {
        git(root, 'init', '-q');
        git(root, 'add', '-A');
        git(root, 'commit', '-qm', 'tree');
        for (let i = 0; i < DIRTY; i++) appendFileSync(join(root, `pkg${i}`, 'src', 'file0.ts'), '// dirty\n');
        for (let i = 0; i < UNTRACKED; i++) writeFileSync(join(root, `pkg${i}`, 'src', 'new.ts'), `// untracked ${i}\n`);
        // Warm git's own index stat cache, as a user's `git status` would have.
        await runGit(root, ['status', '--porcelain']);
      }
      const snapshots = join(base, `${kind}-snapshots`);
      const store = new FileSnapshotStore({ dir: snapshots, maxBytes: () => 1e12, references: async () => [] });
      const watch = new WorkspaceWatch(root, store);
      const command = (i: number) => appendFileSync(join(root, 'pkg7', 'src', 'file3.ts'), `// change ${i}\n`);
      let start = performance.now();
      let before = await watch.before();
      const firstBefore = performance.now() - start;
      command(-1);
      start = performance.now();
      let found = await watch.after(before);
      const firstAfter = performance.now() - start;
      const firstBytes = await storeBytes(snapshots);
      const befores: number[] = [];
      const afters: number[] = [];
      for (let i = 0; i < runs; i++) {
        start = performance.now();
        before = await watch.before();
        befores.push(performance.now() - start);
        command(i);
        start = performance.now();
        found = await watch.after(before);
        afters.push(performance.now() - start);
      }
      const perCommand = ((await storeBytes(snapshots)) - firstBytes) / runs;
      const what = kind === 'git' ? `git repository, ${DIRTY} dirty + ${UNTRACKED} untracked files` : 'plain folder (every file compared)';
      lines.push(
        `  ${what}: first command before ${formatMs(summarize([firstBefore]))}, after ${formatMs(summarize([firstAfter]))}; ` +
          `then before ${formatMs(summarize(befores))}, after ${formatMs(summarize(afters))}; ` +
          `snapshots ${kb(firstBytes)} at the first command, then ${kb(perCommand)} per command (found ${found.length} change each time)`,
      );
      if (kind === 'git') {
        const status: number[] = [];
        for (let i = 0; i < runs; i++) {
          start = performance.now();
          await runGit(root, ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--ignore-submodules=all', '--no-renames']);
          status.push(performance.now() - start);
        }
        lines.push(`    of which one git status: ${formatMs(summarize(status))}`);
        const worktrees = new Worktrees(join(base, 'worktrees'));
        const starts: number[] = [];
        const plainAdds: number[] = [];
        // Beside it, alternating: git's own checkout of HEAD into a new worktree, which the start cannot beat.
        for (let i = 0; i < 3; i++) {
          start = performance.now();
          const handle = await worktrees.create({ workspaceRoot: root, runId: `r_bench${i}`, threadId: 't_bench', agent: 'bench' });
          starts.push(performance.now() - start);
          await worktrees.discard(handle.manifest);
          const plain = join(base, `plain-worktree${i}`);
          start = performance.now();
          await runGit(root, ['worktree', 'add', '--quiet', '--detach', plain, 'HEAD']);
          plainAdds.push(performance.now() - start);
          await runGit(root, ['worktree', 'remove', '--force', plain]);
        }
        lines.push(
          `  Worktree run start there (commit of the working tree through a temporary index + git worktree add): ${formatMs(summarize(starts))} over 3; plain \`git worktree add\` of HEAD there ${formatMs(summarize(plainAdds))}`,
        );
      }
    }
    return lines;
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
