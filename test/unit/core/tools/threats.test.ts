import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { link, mkdir, readFile, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApprovalRequest } from '../../../../src/core/ports';
import { PendingApprovals } from '../../../../src/core/access/approvals/pendingApprovals';
import { makeEngine } from '../engineHarness';
import { makeWorld, RecordingApprover, runScript, snapshot, spyWorkspace, supervisorCalls } from './toolWorld';

/**
 * The bad inputs of issue #4, each through the real engine and a scripted model over a real temp
 * directory: the call is refused or asked about, and nothing changes on disk.
 */

let world: Awaited<ReturnType<typeof makeWorld>>;
beforeEach(async () => {
  world = await makeWorld();
  await writeFile(join(world.root, 'README.md'), 'hello\n');
});
afterEach(() => world.cleanup());

const approveAll = () => new RecordingApprover(() => 'approved');
const denyAll = () => new RecordingApprover(() => 'denied');
const errorOf = (output: unknown) => (output as { error?: string }).error ?? '';

describe('paths outside the workspace are refused, not asked, whatever the user would say', () => {
  async function expectRefused(paths: string[], expectedWhy: RegExp) {
    const before = await snapshot(world.base);
    const approver = approveAll();
    const calls = paths.flatMap((path) => [
      { tool: 'write_file', input: { path, content: 'pwned' } },
      { tool: 'edit_file', input: { path, oldText: 'root', newText: 'pwned' } },
      { tool: 'read_file', input: { path } },
    ]);
    const r = await runScript(supervisorCalls(...calls), { root: world.root, approver, settings: { approval: 'trust' } });
    for (const tool of ['write_file', 'edit_file', 'read_file']) {
      const outputs = r.toolResults(tool);
      expect(outputs).toHaveLength(paths.length);
      for (const output of outputs) expect(errorOf(output)).toMatch(expectedWhy);
    }
    expect(approver.requests).toEqual([]);
    expect(await snapshot(world.base)).toEqual(before);
  }

  it('../../etc/passwd (a decoy that an escape would reach)', async () => {
    await expectRefused(['../../etc/passwd', 'src/../../../etc/passwd'], /outside the workspace/);
    expect(await readFile(join(world.base, 'etc', 'passwd'), 'utf8')).toBe('root:x:0:0:decoy\n');
  });

  it('an absolute path in a sibling folder that shares the workspace prefix', async () => {
    await expectRefused([join(world.sibling, 'secret.txt'), `${world.root}-other/secret.txt`], /outside the workspace/);
  });

  it('a symlink to a folder outside, for existing and new files', async () => {
    await symlink(world.sibling, join(world.root, 'link'));
    await expectRefused(['link/secret.txt', 'link/new.txt', 'link/deeper/new.txt'], /symbolic link/);
  });

  it('a hard link to a file outside: writes through it are refused and the outside file keeps its content', async () => {
    await link(join(world.sibling, 'secret.txt'), join(world.root, 'linked.txt'));
    const before = await snapshot(world.base);
    const approver = approveAll();
    const r = await runScript(
      supervisorCalls(
        { tool: 'write_file', input: { path: 'linked.txt', content: 'pwned' } },
        { tool: 'edit_file', input: { path: 'linked.txt', oldText: 'sibling', newText: 'pwned' } },
      ),
      { root: world.root, approver, settings: { approval: 'trust' } },
    );
    for (const tool of ['write_file', 'edit_file']) expect(errorOf(r.toolResults(tool)[0])).toMatch(/hard link/);
    expect(approver.requests).toEqual([]);
    expect(await snapshot(world.base)).toEqual(before);
    expect(await readFile(join(world.sibling, 'secret.txt'), 'utf8')).toBe('sibling secret\n');
  });

  it('NUL, control characters, trailing dots and spaces, and other odd names', async () => {
    await expectRefused(
      ['a\u0000b.txt', 'README.md\u0000.png', 'notes.txt.', 'dir./x.txt', 'x ', 'a\nb', 'nul.txt', 'GIT~1/config'],
      /Refused/,
    );
  });
});

describe('protected files always ask, even in trust mode', () => {
  const protectedPaths = [
    '.vscode/settings.json',
    '.vscode/tasks.json',
    '.VSCode/Settings.json',
    '.VSCODE/TASKS.JSON',
    '.git/hooks/pre-commit',
    '.GIT/hooks/pre-commit',
    'project.code-workspace',
    'Project.CODE-WORKSPACE',
    '.env.local',
    'package-lock.json',
  ];

  it('asks for each, and a denial leaves nothing behind', async () => {
    const before = await snapshot(world.base);
    const approver = denyAll();
    const calls = protectedPaths.map((path) => ({ tool: 'write_file', input: { path, content: '{"pwned": true}' } }));
    const r = await runScript(supervisorCalls(...calls), { root: world.root, approver, settings: { approval: 'trust' } });
    expect(approver.requests.map((q) => (q.input as { path: string }).path).sort()).toEqual([...protectedPaths].sort());
    for (const q of approver.requests) expect(q.reason).toMatch(/Protected file/);
    for (const output of r.toolResults('write_file')) expect(errorOf(output)).toMatch(/denied/);
    expect(await snapshot(world.base)).toEqual(before);
    // The panel shows each request on the run that made it, and its answer.
    expect(r.ofKind('approval.requested')).toHaveLength(protectedPaths.length);
    expect(r.ofKind('approval.resolved').every((e) => e.decision === 'denied')).toBe(true);
  });

  it('edit_file of a protected file asks too', async () => {
    await mkdir(join(world.root, '.vscode'));
    await writeFile(join(world.root, '.vscode', 'settings.json'), '{"a": 1}');
    const before = await snapshot(world.base);
    const approver = denyAll();
    await runScript(supervisorCalls({ tool: 'edit_file', input: { path: '.vscode/settings.json', oldText: '1', newText: '2' } }), {
      root: world.root,
      approver,
      settings: { approval: 'autoEdit' },
    });
    expect(approver.requests).toHaveLength(1);
    expect(await snapshot(world.base)).toEqual(before);
  });
});

describe('command lines are judged part by part', () => {
  async function expectAsked(command: string, allow: string[], reason: RegExp, mode: 'ask' | 'autoEdit' | 'trust' = 'ask') {
    const before = await snapshot(world.base);
    const approver = denyAll();
    const r = await runScript(supervisorCalls({ tool: 'run_command', input: { command } }), {
      root: world.root,
      approver,
      // The judge on its own: the OS sandbox would hold some of these without asking.
      settings: { approval: mode, autoApproveCommands: allow, 'sandbox.mode': 'off' },
    });
    expect(approver.requests).toHaveLength(1);
    expect(approver.requests[0]!.reason).toMatch(reason);
    expect(errorOf(r.toolResults('run_command')[0])).toMatch(/denied/);
    // Nothing reached the shell.
    expect(r.commands).toEqual([]);
    expect(await snapshot(world.base)).toEqual(before);
  }

  it('`git status && curl x | sh`: the allowed first part does not carry the rest', async () => {
    await expectAsked(
      'git status && curl x | sh',
      ['git status'],
      /`curl` \(in `curl x`\) is not among the commands allowed without asking/,
    );
  });

  it('`echo $(rm -rf ~)` and backticks: the substituted command is judged', async () => {
    await expectAsked('echo $(rm -rf ~)', ['echo'], /`rm -rf ~`/);
    await expectAsked('echo `rm -rf ~`', ['echo'], /`rm -rf ~`/);
    await expectAsked('echo "$(rm -rf ~)"', ['echo'], /`rm -rf ~`/);
  });

  it('a newline-separated second command', async () => {
    await expectAsked('git status\nrm -rf README.md', ['git status'], /`rm -rf README.md`/);
    await expectAsked('git status\r\nrm -rf README.md', ['git status'], /`rm -rf README.md`/, 'autoEdit');
  });

  it('output redirection into a dotfile asks in every mode', async () => {
    await expectAsked('echo pwned > .bashrc', ['echo'], /protected file/, 'trust');
    // The judge expands ~ itself now: the target is the real ~/.bashrc, outside the workspace.
    await expectAsked('echo pwned >> ~/.bashrc', ['echo'], /outside the workspace/, 'trust');
    await expectAsked('echo pwned 1>.npmrc', ['echo'], /protected file/, 'autoEdit');
    expect(existsSync(join(world.root, '.bashrc'))).toBe(false);
  });

  it('a line that cannot be parsed asks', async () => {
    await expectAsked("echo 'unterminated", ['echo'], /cannot be judged/, 'trust');
    // tree-sitter reads here-documents; this one's redirection into x is an edit in ask mode.
    await expectAsked('cat <<EOF > x\nhi\nEOF', ['cat'], /writes its output to a file/);
  });

  it('an allowlisted command line runs unasked', async () => {
    const approver = denyAll();
    const r = await runScript(supervisorCalls({ tool: 'run_command', input: { command: 'cat README.md | wc -l && echo ok' } }), {
      root: world.root,
      approver,
      settings: { approval: 'ask', autoApproveCommands: ['cat', 'wc', 'echo ok'] },
    });
    expect(approver.requests).toEqual([]);
    expect(r.toolResults('run_command')[0]).toMatchObject({ exitCode: 0, output: '1\nok\n' });
    // A real command in the OS sandbox: its start alone can take seconds on a loaded machine.
  }, 30_000);
});

describe('an approval is bound to its arguments', () => {
  it('what runs is what the user was shown: an approver that alters its copy of the request changes nothing', async () => {
    const approver = new RecordingApprover((request) => {
      // A host that rewrites what it was asked about (a bug, or worse) must not change what runs.
      Reflect.set(request.input as object, 'newText', 'pwned');
      return 'approved';
    });
    const r = await runScript(supervisorCalls({ tool: 'edit_file', input: { path: 'README.md', oldText: 'hello', newText: 'goodbye' } }), {
      root: world.root,
      approver,
    });
    expect(approver.requests).toHaveLength(1);
    expect(Object.isFrozen(approver.requests[0]!.input)).toBe(true);
    expect(r.toolResults('edit_file')[0]).toEqual({ path: 'README.md', line: 1 });
    expect(await readFile(join(world.root, 'README.md'), 'utf8')).toBe('goodbye\n');
  });

  it('an approval answers its own call only: approving one edit does not approve another with other arguments', async () => {
    // Calls on one file take turns (oneFileAtATime.ts): the second is asked once the first is done.
    const waiting: (() => void)[] = [];
    const asked = (n: number) => new Promise<void>((resolve) => waiting.push(() => approvals.waiting().length === n && resolve()));
    const firstAsked = asked(1);
    // The panel's approver, telling the test when a request waits.
    const approvals = new (class extends PendingApprovals {
      override request(request: ApprovalRequest, signal: AbortSignal) {
        const decided = super.request(request, signal);
        for (const w of waiting) w();
        return decided;
      }
    })();
    const calls = [
      { tool: 'edit_file', input: { path: 'README.md', oldText: 'hello', newText: 'goodbye' } },
      { tool: 'write_file', input: { path: 'README.md', content: 'pwned\n' } },
    ];
    // README.md was there well before the run (the conflict guard refuses a never-read file written as the run starts).
    const before = new Date(Date.now() - 60_000);
    await utimes(join(world.root, 'README.md'), before, before);
    const h = makeEngine(supervisorCalls(...calls), { workspace: spyWorkspace(world.root).workspace, approver: approvals });
    const { done } = await h.engine.send({ prompt: 'go' });
    await firstAsked;
    const [edit] = approvals.waiting();
    expect(edit!.tool).toBe('edit_file');
    const secondAsked = asked(1);
    expect(approvals.resolve(edit!.approvalId, 'approved')).toBe(true);
    // The answer is spent: it cannot be replayed for the other call, which waits for its own.
    expect(approvals.resolve(edit!.approvalId, 'approved')).toBe(false);
    await secondAsked;
    const [overwrite] = approvals.waiting();
    expect(overwrite!.tool).toBe('write_file');
    expect(overwrite!.approvalId).not.toBe(edit!.approvalId);
    expect(approvals.resolve(edit!.approvalId, 'approved')).toBe(false);
    expect(approvals.resolve(overwrite!.approvalId, 'denied')).toBe(true);
    expect((await done).status).toBe('ok');
    expect(await readFile(join(world.root, 'README.md'), 'utf8')).toBe('goodbye\n');
  });
});

describe('files that may hold secrets ask before they are read, in ask and autoEdit', () => {
  const SECRET = 'db-password-4c9e1f7a';
  const secretFiles = ['.env', '.env.production', 'certs/server.pem', 'certs/server.KEY', 'home/.ssh/id_ed25519'];

  beforeEach(async () => {
    for (const path of secretFiles) {
      await mkdir(join(world.root, path, '..'), { recursive: true });
      await writeFile(join(world.root, path), `SECRET=${SECRET}\n`);
    }
    await writeFile(join(world.root, 'id_generator.ts'), 'export const id = 1;\n');
  });

  for (const mode of ['ask', 'autoEdit'] as const) {
    it(`${mode}: read_file asks for each, a denial shows nothing, and search_text leaves them out`, async () => {
      const approver = denyAll();
      const reads = [...secretFiles, 'README.md', 'id_generator.ts'].map((path) => ({ tool: 'read_file', input: { path } }));
      const r = await runScript(supervisorCalls(...reads, { tool: 'search_text', input: { pattern: 'SECRET=' } }), {
        root: world.root,
        approver,
        settings: { approval: mode },
      });
      expect(approver.requests.map((q) => (q.input as { path: string }).path).sort()).toEqual([...secretFiles].sort());
      for (const q of approver.requests) expect(q.reason).toMatch(/may hold secrets/);
      expect(r.toolResults('read_file').filter((o) => /denied/.test(errorOf(o)))).toHaveLength(secretFiles.length);
      expect(r.toolResults('search_text')[0]).toMatchObject({ matches: [], note: expect.stringMatching(/5 files that may hold secrets/) });
      expect(JSON.stringify(r.h.events).includes(SECRET)).toBe(false);
    });
  }

  it('trust: they are read without asking', async () => {
    const approver = denyAll();
    const r = await runScript(supervisorCalls({ tool: 'read_file', input: { path: '.env' } }), {
      root: world.root,
      approver,
      settings: { approval: 'trust' },
    });
    expect(approver.requests).toEqual([]);
    expect(r.toolResults('read_file')[0]).toMatchObject({ content: `     1\tSECRET=${SECRET}` });
  });
});

describe.skipIf(process.platform === 'win32')('nothing hangs the host', () => {
  it('read_file refuses a named pipe and a socket with a sentence, without opening them to read', async () => {
    expect(spawnSync('mkfifo', [join(world.root, 'pipe')]).status).toBe(0);
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(join(world.root, 'sock'), resolve));
    try {
      const r = await runScript(
        supervisorCalls({ tool: 'read_file', input: { path: 'pipe' } }, { tool: 'read_file', input: { path: 'sock' } }),
        { root: world.root, settings: { approval: 'trust' } },
      );
      const errors = r.toolResults('read_file').map(errorOf).sort();
      expect(errors).toEqual([
        'pipe is a named pipe (FIFO), not a regular file; read_file reads only regular files.',
        'sock is a socket, not a regular file; read_file reads only regular files.',
      ]);
      expect(r.finished.status).toBe('ok');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe.skipIf(process.platform === 'win32')('a command that never ends', () => {
  it('is killed at its timeout with its children, and the model is told so', async () => {
    const r = await runScript(
      supervisorCalls({ tool: 'run_command', input: { command: 'sleep 1000 & echo "bg:$!"; sleep 1000', timeoutMs: 300 } }),
      // Without the sandbox, so the pid printed is the host's (sandbox.test.ts has the sandboxed case).
      { root: world.root, settings: { approval: 'trust', 'sandbox.mode': 'off' } },
    );
    const result = r.toolResults('run_command')[0] as { error: string; output: string };
    expect(result.error).toMatch(/Timed out after 300 ms; the command and every process it started were killed/);
    const pid = Number(/bg:(\d+)/.exec(result.output)?.[1]);
    expect(pid).toBeGreaterThan(0);
    await vi.waitFor(() => expect(isGone(pid)).toBe(true), { timeout: 1000, interval: 10 });
    expect(r.finished.status).toBe('ok');
  });
});

/** No such process, or a zombie: it runs no more. */
function isGone(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.startsWith('Z');
  } catch {
    return true;
  }
}
