import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git, runGit } from '../../../../src/core/changes/git/runGit';
import { sharedProcessLauncher, shutdownProcessLauncher } from '../../../../src/core/platform/processLauncher/sharedLauncher';

let repo: string;
beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), 'run-git-'));
  await git(repo, ['init', '-q']);
});
afterAll(async () => {
  shutdownProcessLauncher();
  await rm(repo, { recursive: true, force: true });
});

describe.skipIf(process.platform !== 'linux')("the product's git", () => {
  it('is started by the process launcher, with its input on stdin and its output whole', async () => {
    const before = sharedProcessLauncher()?.launched ?? 0;
    const blob = Buffer.from([0, 1, 2, 255, ...Buffer.from('line\n'.repeat(50_000))]);
    const hash = (await git(repo, ['hash-object', '-w', '--stdin'], { input: blob })).trim();
    const back = await runGit(repo, ['cat-file', 'blob', hash]);
    expect(back.code).toBe(0);
    expect(back.stdout.equals(blob)).toBe(true);
    expect(sharedProcessLauncher()!.launched - before).toBe(2);
  });

  it("runs as the launcher's child, without the product's keys", async () => {
    process.env.SUBAGENTS_TEST_KEY = 'product-secret';
    process.env.OPENAI_API_KEY = 'sk-test-not-for-git';
    try {
      // A shell alias: git runs it as its child, so it sees git's environment and git's own parent (in /proc/$PPID/stat).
      const shown = await git(repo, ['-c', 'alias.env=!env; echo "gitparent:$(cut -d" " -f4 /proc/$PPID/stat)"', 'env']);
      expect(shown).not.toMatch(/product-secret|sk-test-not-for-git/);
      expect(shown).toContain('GIT_OPTIONAL_LOCKS=0');
      expect(Number(/gitparent:(\d+)/.exec(shown)?.[1])).toBe(sharedProcessLauncher()!.pid);
    } finally {
      delete process.env.SUBAGENTS_TEST_KEY;
      delete process.env.OPENAI_API_KEY;
    }
  });

  it('says so when there is no git', async () => {
    const path = process.env.PATH;
    process.env.PATH = '/nowhere';
    try {
      await expect(runGit(repo, ['status'])).rejects.toThrow('git is not installed (or not on PATH)');
    } finally {
      process.env.PATH = path;
    }
  });
});
