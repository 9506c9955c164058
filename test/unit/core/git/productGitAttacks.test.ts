import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync } from 'node:fs';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { MemorySnapshotStore } from '../../../../src/core/changes/attribution/snapshotStore';
import { WorkspaceWatch } from '../../../../src/core/changes/attribution/workspaceWatch';
import { commitWorkingTree, headCommit } from '../../../../src/core/changes/git/commitWorkingTree';
import { repositoryOf, runGit } from '../../../../src/core/changes/git/runGit';
import { GitDirRefused } from '../../../../src/core/changes/git/verifiedRepository';
import { shutdownProcessLauncher } from '../../../../src/core/platform/processLauncher/sharedLauncher';
import { Worktrees } from '../../../../src/core/changes/worktrees/worktrees';
import { gitWorld, plainWorld } from '../changes/gitWorld';

/**
 * A command in the sandbox can write `.git` (its config, hooks, a `.git` file where there was
 * none); the product's own git, outside the sandbox, must not run what that names. Each attack
 * plants a program that touches a marker outside the workspace, shows that a plain git would run
 * it, then drives the product's own git over it: the status around a command, the commit of the
 * working tree (add), a worktree run's start and end.
 */

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});
afterAll(() => shutdownProcessLauncher());

const plainGit = (cwd: string, ...args: string[]) =>
  spawnSync('git', args, {
    cwd,
    stdio: 'ignore',
    env: { ...process.env, GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@b', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@b' },
  });

async function world() {
  const w = await gitWorld({ 'a.txt': 'one\n', 'b.txt': 'two\n' });
  cleanup = w.cleanup;
  const marker = join(w.base, 'marker');
  const touch = `touch ${marker}`;
  return { ...w, marker, touch, storage: join(w.base, 'storage') };
}

/** The product's git over the workspace: the status before and after a command that changes a file, the working tree committed, a worktree run started and ended. */
async function productGitOver(w: Awaited<ReturnType<typeof world>>): Promise<void> {
  const watch = new WorkspaceWatch(w.root, new MemorySnapshotStore());
  const before = await watch.before();
  await w.put('a.txt', 'one, changed by a command\n');
  await w.put('new.txt', 'new\n');
  const changes = await watch.after(before);
  expect(changes.map((c) => c.rel)).toEqual(['a.txt', 'new.txt']);
  const scratch = join(w.base, 'scratch');
  await mkdir(scratch, { recursive: true });
  await commitWorkingTree(w.root, await headCommit(w.root), 'test', scratch);
  const worktrees = new Worktrees(join(w.storage, 'worktrees'));
  const handle = await worktrees.create({ workspaceRoot: w.root, runId: 'r_attack', threadId: 't_attack', agent: 'a' });
  await writeFile(join(handle.root, 'b.txt'), 'two, in the worktree\n');
  const pending = await worktrees.finish(handle.manifest);
  expect(pending?.files?.map((f) => f.path)).toEqual(['b.txt']);
}

describe.skipIf(process.platform === 'win32')("the product's own git, over a .git a command wrote", { timeout: 30_000 }, () => {
  it('a clean/smudge filter in .git/config named by .gitattributes', async () => {
    const w = await world();
    w.git('config', 'filter.evil.clean', `${w.touch}; cat`);
    w.git('config', 'filter.evil.smudge', `${w.touch}; cat`);
    w.git('config', 'filter.evil.required', 'true');
    await w.put('.gitattributes', '* filter=evil\n');
    plainGit(w.root, 'add', '-A', '--dry-run', '--ignore-missing', '.');
    plainGit(w.root, 'hash-object', 'a.txt');
    expect(existsSync(w.marker)).toBe(true);
    await rm(w.marker);
    await productGitOver(w);
    expect(existsSync(w.marker)).toBe(false);
  });

  it('a long-running filter process, under a name with a dot, from an included config file', async () => {
    const w = await world();
    await writeFile(join(w.root, '.git', 'more.config'), `[filter "a.b"]\n\tprocess = ${w.touch}; false\n\trequired\n`);
    w.git('config', 'include.path', 'more.config');
    await w.put('.gitattributes', '* filter=a.b\n');
    plainGit(w.root, 'hash-object', 'a.txt');
    expect(existsSync(w.marker)).toBe(true);
    await rm(w.marker);
    await productGitOver(w);
    expect(existsSync(w.marker)).toBe(false);
  });

  it("a filter the user's own config defines (as git-lfs does) keeps working; the repository's takes nothing from it", async () => {
    const w = await world();
    const userConfig = join(w.base, 'user.gitconfig');
    await writeFile(userConfig, `[filter "upper"]\n\tclean = tr a-z A-Z\n`);
    w.git('config', 'filter.evil.clean', `${w.touch}; cat`);
    await w.put('.gitattributes', '*.up filter=upper\n*.txt filter=evil\n');
    await w.put('x.up', 'shout\n');
    const saved = process.env.GIT_CONFIG_GLOBAL;
    process.env.GIT_CONFIG_GLOBAL = userConfig;
    try {
      const scratch = join(w.base, 'scratch');
      await mkdir(scratch);
      const { commit } = await commitWorkingTree(w.root, await headCommit(w.root), 'test', scratch);
      expect((await runGit(w.root, ['cat-file', 'blob', `${commit}:x.up`])).stdout.toString()).toBe('SHOUT\n');
    } finally {
      if (saved === undefined) delete process.env.GIT_CONFIG_GLOBAL;
      else process.env.GIT_CONFIG_GLOBAL = saved;
    }
    expect(existsSync(w.marker)).toBe(false);
  });

  it('core.fsmonitor', async () => {
    const w = await world();
    w.git('config', 'core.fsmonitor', `${w.touch}; false`);
    plainGit(w.root, 'status');
    expect(existsSync(w.marker)).toBe(true);
    await rm(w.marker);
    await productGitOver(w);
    expect(existsSync(w.marker)).toBe(false);
  });

  it('hooks: pre-commit, post-commit, post-checkout, reference-transaction, in .git/hooks and in a core.hooksPath', async () => {
    const w = await world();
    const hooks = join(w.root, '.git', 'hooks');
    await mkdir(join(w.base, 'otherhooks'));
    for (const dir of [hooks, join(w.base, 'otherhooks')]) {
      for (const name of ['pre-commit', 'post-commit', 'post-checkout', 'reference-transaction', 'post-index-change']) {
        await writeFile(join(dir, name), `#!/bin/sh\n${w.touch}\n`);
        chmodSync(join(dir, name), 0o755);
      }
    }
    plainGit(w.root, 'commit', '-q', '--allow-empty', '-m', 'plain');
    expect(existsSync(w.marker)).toBe(true);
    await rm(w.marker);
    w.git('config', 'core.hooksPath', join(w.base, 'otherhooks'));
    await productGitOver(w);
    expect(existsSync(w.marker)).toBe(false);
  });

  it("core.pager, pager.<command>, diff.external, a diff driver's command and textconv", async () => {
    const w = await world();
    w.git('config', 'core.pager', `${w.touch}; cat`);
    w.git('config', 'pager.diff', `${w.touch}; cat`);
    w.git('config', 'diff.external', `${w.touch}; true`);
    w.git('config', 'diff.evil.command', `${w.touch}; true`);
    w.git('config', 'diff.evil.textconv', `${w.touch}; cat`);
    await w.put('.gitattributes', '* diff=evil\n');
    await w.put('b.txt', 'two, changed\n');
    plainGit(w.root, 'diff', 'HEAD');
    await w.put('b.txt', 'two\n');
    expect(existsSync(w.marker)).toBe(true);
    await rm(w.marker);
    await productGitOver(w);
    // The product's git asked for a patch: no external program, no textconv, no pager.
    const patch = await runGit(w.root, ['diff', 'HEAD']);
    expect(patch.stdout.toString()).toMatch(/^diff --git/);
    expect(existsSync(w.marker)).toBe(false);
  });

  it('core.worktree naming another folder: the product looks at the workspace, not there', async () => {
    const w = await world();
    const elsewhere = join(w.base, 'elsewhere');
    await mkdir(elsewhere);
    await writeFile(join(elsewhere, 'secret.txt'), 'not the workspace\n');
    w.git('config', 'core.worktree', elsewhere);
    const watch = new WorkspaceWatch(w.root, new MemorySnapshotStore());
    const before = await watch.before();
    expect([...before.files.keys()]).toEqual([]);
    const scratch = join(w.base, 'scratch');
    await mkdir(scratch);
    const { tree } = await commitWorkingTree(w.root, await headCommit(w.root), 'test', scratch);
    const names = execFileSync('git', ['ls-tree', '--name-only', tree], {
      cwd: w.root,
      encoding: 'utf8',
      env: { ...process.env, GIT_WORK_TREE: w.root },
    });
    expect(names.trim().split('\n').sort()).toEqual(['a.txt', 'b.txt']);
  });

  it('a .git file pointing at another repository: refused, and that repository gets no object, branch or worktree', async () => {
    const other = await gitWorld({ 'mine.txt': "the user's other project\n" });
    const p = await plainWorld({ 'a.txt': 'one\n' });
    cleanup = async () => {
      await other.cleanup();
      await p.cleanup();
    };
    await writeFile(join(p.root, '.git'), `gitdir: ${join(other.root, '.git')}\n`);
    const objectsBefore = other.git('count-objects', '-v');
    await expect(repositoryOf(p.root)).rejects.toThrow(GitDirRefused);
    await expect(repositoryOf(p.root)).rejects.toThrow(/does not name .* back/);
    await expect(new WorkspaceWatch(p.root, new MemorySnapshotStore()).before()).rejects.toThrow(GitDirRefused);
    const worktrees = new Worktrees(join(p.base, 'storage', 'worktrees'));
    await expect(worktrees.create({ workspaceRoot: p.root, runId: 'r_x', threadId: 't_x', agent: 'a' })).rejects.toThrow(GitDirRefused);
    expect(other.git('count-objects', '-v')).toBe(objectsBefore);
    expect(other.git('worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);
    expect(other.git('branch', '--list').trim()).toBe('* main');
  });

  it('a .git file pointing at a git folder made inside the workspace: refused', async () => {
    const p = await plainWorld({ 'a.txt': 'one\n' });
    cleanup = p.cleanup;
    execFileSync('git', ['init', '-q', '--bare', join(p.root, '.hidden')]);
    await writeFile(join(p.root, '.git'), 'gitdir: .hidden\n');
    await expect(repositoryOf(p.root)).rejects.toThrow(/lies inside the work tree/);
  });

  it('a .git that is a symbolic link to another repository: refused', async () => {
    const other = await gitWorld({ 'mine.txt': 'mine\n' });
    const p = await plainWorld({ 'a.txt': 'one\n' });
    cleanup = async () => {
      await other.cleanup();
      await p.cleanup();
    };
    await symlink(join(other.root, '.git'), join(p.root, '.git'));
    await expect(runGit(p.root, ['status'])).rejects.toThrow(/is a symbolic link; the product's git does not follow it/);
  });

  it('a commondir file in .git: refused', async () => {
    const w = await world();
    const fake = join(w.base, 'fake');
    execFileSync('git', ['init', '-q', '--bare', fake]);
    await writeFile(join(w.root, '.git', 'commondir'), `${fake}\n`);
    await expect(repositoryOf(w.root)).rejects.toThrow(/commondir/);
  });

  it('objects/info/alternates borrowing from another folder: refused, with what to do', async () => {
    const w = await world();
    const other = join(w.base, 'other.git');
    execFileSync('git', ['init', '-q', '--bare', other]);
    await mkdir(join(w.root, '.git', 'objects', 'info'), { recursive: true });
    await writeFile(join(w.root, '.git', 'objects', 'info', 'alternates'), `${join(other, 'objects')}\n`);
    await expect(runGit(w.root, ['status'])).rejects.toThrow(/borrow objects.*git repack -a -d/);
  });

  it('a linked worktree made by git itself is used as it is', async () => {
    const w = await world();
    const linked = join(w.base, 'linked');
    w.git('worktree', 'add', '-q', linked);
    const repo = await repositoryOf(join(linked));
    expect(repo).toEqual({ top: linked, prefix: '' });
    expect(await readFile(join(linked, 'a.txt'), 'utf8')).toBe('one\n');
  });

  it("a submodule's work tree (its .git file names the superproject's modules folder, which names it back) is used as it is", async () => {
    const w = await world();
    const lib = await gitWorld({ 'lib.txt': 'lib\n' });
    const prior = cleanup;
    cleanup = async () => {
      await prior?.();
      await lib.cleanup();
    };
    w.git('-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib.root, 'lib');
    expect(await repositoryOf(join(w.root, 'lib'))).toEqual({ top: join(w.root, 'lib'), prefix: '' });
    const watch = new WorkspaceWatch(join(w.root, 'lib'), new MemorySnapshotStore());
    const before = await watch.before();
    await writeFile(join(w.root, 'lib', 'lib.txt'), 'changed\n');
    expect((await watch.after(before)).map((c) => c.rel)).toEqual(['lib.txt']);
  });
});
