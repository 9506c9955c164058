import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { shutdownProcessLauncher } from '../../../../src/core/processLauncher/sharedLauncher';
import { nodeWorkspace } from '../../../../src/core/nodeAdapters/nodeWorkspace';
import type { WorktreeManifest } from '../../../../src/core/worktrees/worktreeManifest';
import { WorktreeRecordRefused } from '../../../../src/core/worktrees/worktreeTrust';
import { Worktrees } from '../../../../src/core/worktrees/worktrees';
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
  await writeFile(join(victim, 'precious.txt'), 'the user\'s\n');
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
    expect(report.refused).toEqual([{ name: 'r_forged.json', reason: expect.stringMatching(/names the folder .*victim, not .*r_forged.*Nothing was removed/) }]);
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
    await w.forge({ state: 'pending', final: 'HEAD', repo: other.root, workspaceRoot: other.root, path: join(w.dir, 'r_forged'), branch: 'subagents/r_forged' });
    await expect(new Worktrees(w.dir).apply('r_forged', nodeWorkspace({ root: w.root }))).rejects.toThrow(/made from .*not from this workspace/);
    expect(await w.read('a.txt')).toBe('one\n');
  });
});
