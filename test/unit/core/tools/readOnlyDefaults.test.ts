import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApprovalRequest } from '../../../../src/core/ports';
import { makeWorld, RecordingApprover, runScript, snapshot, supervisorCalls } from './toolWorld';

/**
 * Issue 39 items 4 and 5 through the real engine, real processes and, for git, the real OS
 * sandbox: the read-only helpers a model pipes its runner into run unasked in autoEdit with only
 * the runner allowed; git's read-only verbs do inside the sandbox, and its config's programs stay
 * inside it; what is refused says what it is and how to allow it, and blames no user who was
 * never asked.
 */

vi.setConfig({ testTimeout: 60_000 });

let world: Awaited<ReturnType<typeof makeWorld>>;
beforeEach(async () => {
  world = await makeWorld();
  await writeFile(join(world.root, 'README.md'), 'one\ntwo\nthree\n');
});
afterEach(() => world.cleanup());

const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: world.root, stdio: 'pipe' });

/** An approver like the CLI's without a terminal: nobody can answer. */
class NobodyApprover extends RecordingApprover {
  constructor() {
    super(() => 'denied');
  }
  canAsk() {
    return false;
  }
  allowCommandHint(prefix: string) {
    return `run with --allow-command '${prefix}'`;
  }
}

function calls(...commands: string[]) {
  return supervisorCalls(...commands.map((command) => ({ tool: 'run_command', input: { command, timeoutMs: 60_000 } })));
}

describe('read-only helpers run unasked (issue 39 item 4)', () => {
  it('a runner piped into tail, and wc | head, with only the runner allowed (autoEdit, no sandbox)', async () => {
    const approver = new RecordingApprover(() => 'denied');
    const r = await runScript(
      calls('npm --version 2>&1 | tail -n 1', 'wc -l README.md | head -n 1', 'cat README.md | grep -n t | sort -r'),
      {
        root: world.root,
        approver,
        settings: { approval: 'autoEdit', autoApproveCommands: ['npm --version'], 'sandbox.mode': 'off' },
      },
    );
    expect(approver.requests).toEqual([]);
    // Parallel calls finish in any order.
    const results = r.toolResults('run_command');
    expect(results).toHaveLength(3);
    expect(results).toEqual(
      expect.arrayContaining([
        { exitCode: 0, output: expect.stringMatching(/^\d+\.\d+\.\d+\n$/) },
        { exitCode: 0, output: '3 README.md\n' },
        { exitCode: 0, output: '3:three\n2:two\n' },
      ]),
    );
  });

  it('git status, diff and log in the OS sandbox; a diff.external in the config runs there, not outside', async () => {
    git('init', '-q');
    git('add', 'README.md');
    git('commit', '-qm', 'first');
    await appendFile(join(world.root, 'README.md'), 'four\n');
    // What an earlier command could have planted: git diff runs diff.external unless --no-ext-diff.
    const outside = join(world.sibling, 'ran-outside');
    await appendFile(join(world.root, '.git', 'config'), `[diff]\n\texternal = "touch ${outside}; echo EXTERNAL"\n`);
    const approver = new RecordingApprover(() => 'denied');
    const r = await runScript(calls('git status --short; git log --oneline | head -n 1; git diff'), {
      root: world.root,
      approver,
      settings: { approval: 'autoEdit', 'sandbox.mode': 'on' },
    });
    expect(approver.requests).toEqual([]);
    const { output } = r.toolResults('run_command')[0] as { output: string };
    expect(output).toContain(' M README.md');
    expect(output).toMatch(/first/);
    // git diff ran the planted program in the sandbox, or (until each sandboxed command gets a
    // temp folder that exists, issue 39 item 2) failed to make the temp files it gives it.
    expect(output).toMatch(/EXTERNAL|unable to create temp-file/);
    // The sandbox let git's external diff write nowhere outside the workspace.
    expect(existsSync(outside)).toBe(false);
  });

  it('outside the sandbox, git status asks: its config could run a program', async () => {
    git('init', '-q');
    const approver = new RecordingApprover(() => 'denied');
    const r = await runScript(calls('git status'), {
      root: world.root,
      approver,
      settings: { approval: 'autoEdit', 'sandbox.mode': 'off' },
    });
    expect(approver.requests.map((q) => q.reason)).toEqual([
      expect.stringMatching(/`git status` is not among the commands allowed without asking.*subagents\.autoApproveCommands/),
    ]);
    expect(r.commands).toEqual([]);
  });
});

describe('honest refusals that teach (issue 39 item 5)', () => {
  it('nobody to ask: "not run", the part that is not allowed, and the CLI flag; never "the user denied"', async () => {
    const before = await snapshot(world.base);
    const approver = new NobodyApprover();
    const r = await runScript(calls('cat README.md | npx vitest run 2>&1 | tail -n 40'), {
      root: world.root,
      approver,
      settings: { approval: 'autoEdit', 'sandbox.mode': 'off' },
    });
    const error = (r.toolResults('run_command')[0] as { error: string }).error;
    expect(error).toMatch(
      /^run_command was not run: `npx vitest` \(in `npx vitest run[^`]*`\) is not among the commands allowed without asking/,
    );
    expect(error).toContain("run with --allow-command 'npx vitest'");
    expect(error).not.toMatch(/user denied|subagents\.autoApproveCommands/i);
    expect(r.commands).toEqual([]);
    expect(await snapshot(world.base)).toEqual(before);
  });

  it('a person who was asked and said no is still a denial, with the setting named', async () => {
    const approver = new RecordingApprover((q: ApprovalRequest) => (q.tool === 'run_command' ? 'denied' : 'approved'));
    const r = await runScript(calls('make build | tail'), {
      root: world.root,
      approver,
      settings: { approval: 'autoEdit', 'sandbox.mode': 'off' },
    });
    const error = (r.toolResults('run_command')[0] as { error: string }).error;
    expect(error).toMatch(
      /^The user denied this run_command call \(`make build` \(in `make build`\)|^The user denied this run_command call \(`make build` is not among/,
    );
    expect(error).toContain('add "make build" to the user setting subagents.autoApproveCommands');
  });
});
