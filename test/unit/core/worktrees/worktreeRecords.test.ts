import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { shutdownProcessLauncher } from '../../../../src/core/platform/processLauncher/sharedLauncher';
import { nodeWorkspace } from '../../../../src/core/engine/nodeWorkspace';
import type { WorktreeManifest } from '../../../../src/core/changes/worktrees/worktreeManifest';
import { WorktreeRecordRefused } from '../../../../src/core/changes/worktrees/worktreeTrust';
import { Worktrees } from '../../../../src/core/changes/worktrees/worktrees';
import { gitWorld } from '../changes/gitWorld';

/**
 * Worktree records live beside the threads, which are in the workspace by default: a command can
 * forge one. Start-up cleanup, discard and apply run outside the sandbox, so they act only on
 * folders under their own worktrees root that git lists as worktrees; a forged record deletes
 * nothing and is reported.
 */

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});
afterAll(() => shutdownProcessLauncher());

async function world() {
  const w = await gitWorld({ 'a.txt': 'one\n' });
  cleanup = w.cleanup;
  // The user's folder a forged record names, and a branch of theirs.
  const victim = join(w.base, 'victim');
  await mkdir(victim);
  await writeFile(join(victim, 'precious.txt'), "the user's\n");
  w.git('branch', 'precious');
  // The default storage: inside the workspace, where a command can write.
  const dir = join(w.root, '.subagents', 'threads', 'worktrees');
  await mkdir(dir, { recursive: true });
  const forge = async (fields: Partial<WorktreeManifest>) => {
    const manifest: WorktreeManifest = {
      version: 1,
      runId: 'r_forged',
      threadId: 't_gone',
      agent: 'a',
      repo: w.root,
      workspaceRoot: w.root,
      prefix: '',
      path: victim,
      branch: 'precious',
      base: 'HEAD',
      state: 'working',
      owner: 'elsewhere:1',
      createdAt: 0,
      ...fields,
    };
    await writeFile(join(dir, `${manifest.runId}.json`), JSON.stringify(manifest));
    return manifest;
  };
  const branches = () => w.git('branch', '--list', '--format=%(refname:short)').trim().split('\n').sort();
  return { ...w, victim, dir, forge, branches };
}

describe.skipIf(process.platform === 'win32')('forged worktree records', { timeout: 30_000 }, () => {
  it('a record naming a folder outside the worktrees root, for a deleted thread: the folder and the branch survive, and it is reported', async () => {
    const w = await world();
    await w.forge({});
    const report = await new Worktrees(w.dir).cleanup(async () => false);
    expect(existsSync(join(w.victim, 'precious.txt'))).toBe(true);
    expect(w.branches()).toEqual(['main', 'precious']);
    expect(report.removed).toEqual([]);
    expect(report.refused).toEqual([
      { name: 'r_forged.json', reason: expect.stringMatching(/names the folder .*victim, not .*r_forged.*Nothing was removed/) },
    ]);
  });

  it('a record a dead process left working, naming a folder elsewhere: nothing is committed there, nothing removed', async () => {
    const w = await world();
    await w.forge({ threadId: 't_alive' });
    const report = await new Worktrees(w.dir).cleanup(async () => true);
    expect(existsSync(join(w.victim, 'precious.txt'))).toBe(true);
    expect(report.finished).toEqual([]);
    expect(report.refused).toHaveLength(1);
    expect(w.git('rev-parse', 'precious')).toBe(w.git('rev-parse', 'main'));
  });

  it('a record whose name climbs out of the folder, and one with the right folder name but another branch', async () => {
    const w = await world();
    await mkdir(join(w.dir, 'r_named'));
    await writeFile(join(w.dir, 'r_named', 'keep.txt'), 'k\n');
    await w.forge({ runId: 'r_named', path: join(w.dir, 'r_named'), branch: 'precious' });
    const report = await new Worktrees(w.dir).cleanup(async () => false);
    expect(w.branches()).toEqual(['main', 'precious']);
    expect(existsSync(join(w.dir, 'r_named', 'keep.txt'))).toBe(true);
    expect(report.refused[0]?.reason).toMatch(/names the branch precious, not subagents\/r_named/);
    expect(await new Worktrees(w.dir).get('../../victim/x')).toBeUndefined();
  });

  it('a record with the right names whose folder git does not list as a worktree: kept, reported', async () => {
    const w = await world();
    const path = join(w.dir, 'r_plain');
    await mkdir(path);
    await writeFile(join(path, 'keep.txt'), 'k\n');
    await w.forge({ runId: 'r_plain', path, branch: 'subagents/r_plain' });
    const report = await new Worktrees(w.dir).cleanup(async () => false);
    expect(await readFile(join(path, 'keep.txt'), 'utf8')).toBe('k\n');
    expect(report.refused[0]?.reason).toMatch(/git does not list .*r_plain as a worktree/);
  });

  it('discard and apply of a forged pending record: refused, nothing removed or written', async () => {
    const w = await world();
    const manifest = await w.forge({ state: 'pending', final: 'HEAD' });
    const worktrees = new Worktrees(w.dir);
    await expect(worktrees.discard(manifest)).rejects.toThrow(WorktreeRecordRefused);
    await expect(worktrees.apply('r_forged', nodeWorkspace({ root: w.root }))).rejects.toThrow(WorktreeRecordRefused);
    expect(existsSync(join(w.victim, 'precious.txt'))).toBe(true);
    expect(w.branches()).toEqual(['main', 'precious']);
  });

  it('a pending record made from another workspace is not applied to this one', async () => {
    const w = await world();
    const other = await gitWorld({ 'a.txt': 'other\n' });
    const prior = cleanup;
    cleanup = async () => {
      await prior?.();
      await other.cleanup();
    };
    await w.forge({
      state: 'pending',
      final: 'HEAD',
      repo: other.root,
      workspaceRoot: other.root,
      path: join(w.dir, 'r_forged'),
      branch: 'subagents/r_forged',
    });
    await expect(new Worktrees(w.dir).apply('r_forged', nodeWorkspace({ root: w.root }))).rejects.toThrow(
      /made from .*not from this workspace/,
    );
    expect(await w.read('a.txt')).toBe('one\n');
  });

  it("a worktree run's command points its worktree's .git at a repository it made, or rewrites its commondir: the run's end refuses, nothing is committed there", async () => {
    const w = await world();
    const storage = join(w.base, 'storage', 'worktrees');
    const worktrees = new Worktrees(storage);
    const first = await worktrees.create({ workspaceRoot: w.root, runId: 'r_one', threadId: 't', agent: 'a' });
    // A repository of the command's making, with a worktree record that names this worktree back.
    const evil = join(w.base, 'evil');
    execFileSync('git', ['init', '-q', evil]);
    const evilWt = join(evil, '.git', 'worktrees', 'x');
    await mkdir(evilWt, { recursive: true });
    await writeFile(join(evilWt, 'HEAD'), 'ref: refs/heads/main\n');
    await writeFile(join(evilWt, 'commondir'), '../..\n');
    await writeFile(join(evilWt, 'gitdir'), `${join(first.manifest.path, '.git')}\n`);
    await writeFile(join(first.manifest.path, '.git'), `gitdir: ${evilWt}\n`);
    await writeFile(join(first.root, 'a.txt'), 'changed\n');
    await expect(worktrees.finish(first.manifest)).rejects.toThrow(/no longer that of a worktree of/);
    expect(execFileSync('git', ['rev-list', '--all'], { cwd: evil, encoding: 'utf8' })).toBe('');

    const second = await worktrees.create({ workspaceRoot: w.root, runId: 'r_two', threadId: 't', agent: 'a' });
    const gitDir = join(w.root, '.git', 'worktrees', 'r_two');
    await writeFile(join(gitDir, 'commondir'), `${join(evil, '.git')}\n`);
    await expect(worktrees.finish(second.manifest)).rejects.toThrow(WorktreeRecordRefused);
  });

  it('the worktrees folder replaced by a link to a folder of the user: cleanup touches nothing there, and says so', async () => {
    const w = await world();
    const storage = join(w.base, 'linked-storage');
    await mkdir(storage);
    await writeFile(join(w.victim, 'old.tmp'), "the user's\n");
    await symlink(w.victim, join(storage, 'worktrees'));
    const report = await new Worktrees(join(storage, 'worktrees')).cleanup(async () => false);
    expect(existsSync(join(w.victim, 'old.tmp'))).toBe(true);
    expect(report.refused[0]?.reason).toMatch(/is a symbolic link or no folder/);
  });
});
