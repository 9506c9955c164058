import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWorld, RecordingApprover, runScript, supervisorCalls } from '../tools/toolWorld';

/**
 * An allowlisted `git status` cannot be turned into a launcher: a repository planted at the
 * workspace root (write_file, approved by a user who did not see the trick) or a core.fsmonitor
 * line in .git/config would run a program on every git command; unasked git commands run with
 * safe.bareRepository=explicit, core.fsmonitor=false, no hooks and no ext:: transport. The
 * sandbox is off here: this is the environment's doing, not the sandbox's.
 */

let world: Awaited<ReturnType<typeof makeWorld>>;
let marker = '';
beforeEach(async () => {
  world = await makeWorld();
  marker = join(world.base, 'marker');
});
afterEach(() => world.cleanup());

const fsmonitor = () => `[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n\tfsmonitor = "touch ${marker}; false"\n`;

async function gitStatusUnasked() {
  const r = await runScript(supervisorCalls({ tool: 'run_command', input: { command: 'git status' } }), {
    root: world.root,
    approver: new RecordingApprover(() => 'denied'),
    settings: { approval: 'ask', autoApproveCommands: ['git status'], 'sandbox.mode': 'off' },
  });
  expect(r.ofKind('approval.requested')).toEqual([]);
  return r.toolResults('run_command')[0] as { exitCode: number; output: string };
}

describe('git hardening', () => {
  it('a fake repository made at the root with write_file, then git status', async () => {
    const approver = new RecordingApprover(() => 'approved');
    await runScript(
      supervisorCalls(
        { tool: 'write_file', input: { path: 'HEAD', content: 'ref: refs/heads/main\n' } },
        { tool: 'write_file', input: { path: 'config', content: fsmonitor() } },
        { tool: 'write_file', input: { path: 'objects/.keep', content: '' } },
        { tool: 'write_file', input: { path: 'refs/heads/.keep', content: '' } },
      ),
      { root: world.root, approver, settings: { approval: 'autoEdit' } },
    );
    // HEAD, objects/ and refs/ at the root are protected: each asked (and this user said yes).
    expect(approver.requests.map((q) => (q.input as { path: string }).path)).toEqual(['HEAD', 'objects/.keep', 'refs/heads/.keep']);
    // The planted repository is a real launcher for a plain git…
    spawnSync('git', ['status'], { cwd: world.root, stdio: 'ignore', env: { ...process.env, GIT_CEILING_DIRECTORIES: world.base } });
    expect(existsSync(marker)).toBe(true);
    await rm(marker);
    // …but not for the agent's unasked one.
    const result = await gitStatusUnasked();
    expect(result.output).toMatch(/bare repository/);
    expect(existsSync(marker)).toBe(false);
  });

  it('a core.fsmonitor line in .git/config, then git status', async () => {
    spawnSync('git', ['init', '-q'], { cwd: world.root });
    await appendFile(
      join(world.root, '.git', 'config'),
      `[core]\n\tfsmonitor = "touch ${marker}; false"\n[alias]\n\tstatus = "!touch ${marker}"\n`,
    );
    spawnSync('git', ['status'], { cwd: world.root, stdio: 'ignore' });
    expect(existsSync(marker)).toBe(true);
    await rm(marker);
    const result = await gitStatusUnasked();
    expect(result.exitCode).toBe(0);
    expect(existsSync(marker)).toBe(false);
  });

  it('hooks do not run for unasked git commands, and -c on the command line asks', async () => {
    const identity = {
      GIT_AUTHOR_NAME: 'a',
      GIT_AUTHOR_EMAIL: 'a@example.com',
      GIT_COMMITTER_NAME: 'a',
      GIT_COMMITTER_EMAIL: 'a@example.com',
    };
    Object.assign(process.env, identity);
    try {
      spawnSync('git', ['init', '-q'], { cwd: world.root });
      const hook = join(world.root, '.git', 'hooks', 'pre-commit');
      await appendFile(hook, `#!/bin/sh\ntouch ${marker}\n`);
      spawnSync('chmod', ['+x', hook]);
      spawnSync('git', ['commit', '-q', '--allow-empty', '-m', 'plain'], { cwd: world.root, stdio: 'ignore' });
      expect(existsSync(marker)).toBe(true);
      await rm(marker);
      const asked = await runScript(
        supervisorCalls({ tool: 'run_command', input: { command: 'git -c alias.ci=commit ci -q --allow-empty -m x' } }),
        {
          root: world.root,
          settings: { approval: 'trust', 'sandbox.mode': 'off' },
        },
      );
      expect(asked.toolResults('run_command')[0]).toMatchObject({ error: expect.stringMatching(/configuration or a program/) });
      const r = await runScript(supervisorCalls({ tool: 'run_command', input: { command: 'git commit -q --allow-empty -m unasked' } }), {
        root: world.root,
        settings: { approval: 'trust', 'sandbox.mode': 'off' },
      });
      expect(r.toolResults('run_command')[0]).toMatchObject({ exitCode: 0 });
      expect(existsSync(marker)).toBe(false);
    } finally {
      for (const name of Object.keys(identity)) delete process.env[name];
    }
  });
});
