import { mkdtemp, readFile, rm, writeFile, symlink, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildCliForTest, startCli, type BuiltCli } from './cliHarness';
import { acpWorkspace, childEnd, eventsOf, FAKE_AGENT } from './acpHarness';

// Issue 44: an external agent over ACP as a subagent, through the real CLI, with a scripted
// supervisor that delegates to a fake ACP agent (test/fixtures/acp/fakeAgent.mjs) run as a process.
vi.setConfig({ testTimeout: 60_000 });

let built: BuiltCli;
let ws: string;

beforeAll(async () => {
  built = await buildCliForTest();
}, 60_000);
afterAll(() => built.dispose());
beforeEach(async () => {
  ws = await mkdtemp(join(tmpdir(), 'cli-acp-ws-'));
  return () => rm(ws, { recursive: true, force: true });
});

const run = (args: string[], env?: NodeJS.ProcessEnv) =>
  startCli(built.path, ['run', '--json', ...args, 'go'], { cwd: ws, ...(env ? { env } : {}) });

describe('an ACP agent as a subagent (issue 44)', () => {
  it('streams its text as the child text and its last message as its result; tool calls, plan and usage land on its node', async () => {
    await acpWorkspace(ws, 'MODE:stream now');
    const out = await run(['--allow-acp', 'fake']);
    expect(out.code, out.stderr).toBe(0);
    const events = eventsOf(out.stdout);
    const end = childEnd(events);
    expect(end?.status, JSON.stringify(end)).toBe('ok');
    expect(end?.output).toBe('Hello from the fake agent.');
    const child = events.filter((e) => e.runId === end?.runId);
    const text = child.flatMap((e) => (e.kind === 'text.delta' ? [e.text] : [])).join('');
    expect(text).toBe('Working on it. Hello from the fake agent.');
    const started = child.find((e) => e.kind === 'tool.started' && e.tool === 'acp:read');
    expect(started).toMatchObject({ input: { title: 'Reading notes.md', locations: [{ path: join(ws, 'notes.md') }] } });
    expect(child.find((e) => e.kind === 'tool.finished' && e.tool === 'acp:read')).toMatchObject({ isError: false });
    expect(child.find((e) => e.kind === 'tool.started' && e.tool === 'todo_write')).toMatchObject({
      input: {
        items: [
          { text: 'Look', status: 'done' },
          { text: 'Answer', status: 'in_progress' },
        ],
      },
    });
    expect(child.find((e) => e.kind === 'run.usage')).toMatchObject({ usage: { inputTokens: 1234 } });
    expect(events.find((e) => e.kind === 'run.started' && e.agent === 'fake')).toMatchObject({ model: `acp:${process.execPath}` });
  });

  it("a workspace-declared ACP agent does not start without --allow-acp: it is asked on its node, and the refusal names the agent, the flag and the editor's prompt", async () => {
    await acpWorkspace(ws, 'MODE:stream');
    const out = await run([]);
    const end = childEnd(eventsOf(out.stdout));
    expect(end?.status).toBe('error');
    expect(end?.error).toContain('The "fake" agent');
    expect(end?.error).toContain('--allow-acp fake');
    expect(end?.error).toContain('approve it when its node asks');
    expect(eventsOf(out.stdout).find((e) => e.kind === 'approval.requested' && e.runId === end?.runId)).toMatchObject({
      tool: 'acp_agent',
    });
    expect(eventsOf(out.stdout).some((e) => e.kind === 'text.delta' && e.runId === end?.runId)).toBe(false);
  });

  it('an agent file (.vscode/agents) declares one in its front matter; as the workspace declared it, it needs --allow-acp too', async () => {
    await acpWorkspace(ws, 'MODE:stream');
    await writeFile(join(ws, '.vscode', 'settings.json'), JSON.stringify({ 'subagents.model': 'scripted:script.json' }));
    await mkdir(join(ws, '.vscode', 'agents'), { recursive: true });
    await writeFile(
      join(ws, '.vscode', 'agents', 'fake.md'),
      `---\nname: fake\ndescription: A fake external agent\nacp:\n  command: ${JSON.stringify(process.execPath)}\n  args: [${JSON.stringify(FAKE_AGENT)}]\n---\n`,
    );
    const refused = childEnd(eventsOf((await run([])).stdout));
    expect(refused?.error).toContain('declared by the workspace (.vscode/agents/fake.md)');
    const allowed = childEnd(eventsOf((await run(['--allow-acp', 'fake'])).stdout));
    expect(allowed).toMatchObject({ status: 'ok', output: 'Hello from the fake agent.' });
  });

  it('fs/write_text_file inside the workspace goes through write_file: written, attributed to the child as file.changed', async () => {
    await acpWorkspace(ws, 'MODE:write ARG:inside.txt');
    const out = await run(['--allow-acp', 'fake', '--approval', 'autoEdit']);
    const events = eventsOf(out.stdout);
    const end = childEnd(events);
    expect(end?.output).toBe('wrote and read back: written by the fake agent');
    expect(await readFile(join(ws, 'inside.txt'), 'utf8')).toBe('written by the fake agent\n');
    // Once: the turn's before/after comparison does not count the write_file change again.
    const changed = events.filter((e) => e.kind === 'file.changed');
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatchObject({ runId: end?.runId, path: 'inside.txt', beforeHash: null, added: 1 });
    expect(events.find((e) => e.kind === 'tool.started' && e.tool === 'write_file' && e.runId === end?.runId)).toBeDefined();
  });

  it('an agent that writes to disk itself is attributed by comparing the workspace before and after its turn', async () => {
    await acpWorkspace(ws, 'MODE:disk ARG:direct.txt');
    const out = await run(['--allow-acp', 'fake']);
    const events = eventsOf(out.stdout);
    const end = childEnd(events);
    expect(end?.output).toBe('wrote it myself');
    expect(events.filter((e) => e.kind === 'file.changed')).toEqual([
      expect.objectContaining({ runId: end?.runId, path: 'direct.txt', beforeHash: null, added: 2, toolCallId: 'acp_turn_1' }),
    ]);
  });

  it('headless ask mode: a write needs approval, no one can give it, so the agent gets an error and nothing is written', async () => {
    await acpWorkspace(ws, 'MODE:write ARG:asked.txt');
    const out = await run(['--allow-acp', 'fake', '--approval', 'ask']);
    const end = childEnd(eventsOf(out.stdout));
    expect(end?.output).toMatch(/^write refused: .*write_file was not run/);
    await expect(readFile(join(ws, 'asked.txt'), 'utf8')).rejects.toThrow();
  });

  it('attack: a write outside the workspace is an error reply, nothing written', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'cli-acp-outside-'));
    try {
      await acpWorkspace(ws, `MODE:write ARG:${join(outside, 'evil.txt')}`);
      const out = await run(['--allow-acp', 'fake', '--approval', 'trust']);
      expect(childEnd(eventsOf(out.stdout))?.output).toMatch(/^write refused: .*outside the workspace/);
      await expect(readFile(join(outside, 'evil.txt'), 'utf8')).rejects.toThrow();
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('attack: a write through a symlink that leads outside is refused', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'cli-acp-outside-'));
    try {
      await symlink(outside, join(ws, 'link'));
      await acpWorkspace(ws, 'MODE:write ARG:link/evil.txt');
      const out = await run(['--allow-acp', 'fake', '--approval', 'trust']);
      expect(childEnd(eventsOf(out.stdout))?.output).toMatch(/^write refused: .*outside the workspace/);
      await expect(readFile(join(outside, 'evil.txt'), 'utf8')).rejects.toThrow();
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('attack: a write to a protected file (.git/hooks) asks even in trust mode, and headless that is a refusal', async () => {
    await mkdir(join(ws, '.git', 'hooks'), { recursive: true });
    await acpWorkspace(ws, 'MODE:write ARG:.git/hooks/pre-commit');
    const out = await run(['--allow-acp', 'fake', '--approval', 'trust']);
    expect(childEnd(eventsOf(out.stdout))?.output).toMatch(/^write refused: /);
    await expect(readFile(join(ws, '.git', 'hooks', 'pre-commit'), 'utf8')).rejects.toThrow();
  });

  it('a permission request goes through the approval policy: allowed in trust mode, rejected headless in ask mode', async () => {
    await acpWorkspace(ws, 'MODE:permission');
    const trusted = await run(['--allow-acp', 'fake', '--approval', 'trust']);
    expect(childEnd(eventsOf(trusted.stdout))?.output).toBe('permission: yes');
    const asked = await run(['--allow-acp', 'fake', '--approval', 'ask']);
    const events = eventsOf(asked.stdout);
    expect(childEnd(events)?.output).toBe('permission: no');
    expect(events.find((e) => e.kind === 'approval.requested')).toMatchObject({ tool: 'acp:execute', toolCallId: 'acp_p1' });
    expect(events.find((e) => e.kind === 'approval.resolved')).toMatchObject({ decision: 'denied' });
  });

  it('attack: a permission request to edit a protected file (.env) is rejected even in trust mode when no one can approve', async () => {
    await writeFile(join(ws, '.env'), 'SECRET=1\n');
    await acpWorkspace(ws, 'MODE:permission ARG:.env');
    const out = await run(['--allow-acp', 'fake', '--approval', 'trust']);
    expect(childEnd(eventsOf(out.stdout))?.output).toBe('permission: no');
  });

  it('a crash is a failed child whose error carries the last lines of its stderr; the supervisor goes on', async () => {
    await acpWorkspace(ws, 'MODE:crash');
    const out = await run(['--allow-acp', 'fake']);
    const events = eventsOf(out.stdout);
    const end = childEnd(events);
    expect(end?.status).toBe('error');
    expect(end?.error).toContain('exit code 1');
    expect(end?.error).toContain('fatal: the fake agent crashed on purpose');
    expect(events.at(-1)).toMatchObject({ kind: 'run.finished', status: 'ok', output: 'Supervisor done' });
  });

  it('a hung agent that ignores session/cancel is ended by its timeoutMs: status timeout, its process gone', async () => {
    await acpWorkspace(ws, 'MODE:hang', { timeoutMs: 1500 });
    const started = Date.now();
    const out = await run(['--allow-acp', 'fake']);
    const end = childEnd(eventsOf(out.stdout));
    expect(end?.status).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(out.code, out.stderr).toBe(0);
  });

  for (const mode of ['cancel', 'hang']) {
    it(`Ctrl+C stops an ACP child (${mode === 'cancel' ? 'it honours session/cancel' : 'it ignores session/cancel'}): cancelled, its process gone, no orphan`, async () => {
      await acpWorkspace(ws, `MODE:${mode}`);
      let pid = 0;
      let signalledAt = 0;
      const out = await startCli(built.path, ['run', '--json', '--allow-acp', 'fake', 'go'], {
        cwd: ws,
        onStdout: (text, child) => {
          const found = /pid=(\d+)/.exec(text);
          if (found && !pid) {
            pid = Number(found[1]);
            signalledAt = Date.now();
            child.kill('SIGINT');
          }
        },
      });
      expect(pid).toBeGreaterThan(0);
      expect(Date.now() - signalledAt).toBeLessThan(5000);
      expect(childEnd(eventsOf(out.stdout))?.status).toBe('cancelled');
      expect(() => process.kill(pid, 0)).toThrow();
    });
  }

  it('no agent process outlives the CLI; a later `run --thread` continuing the child thread loads its session (session/load) in a new process', async () => {
    await acpWorkspace(ws, 'MODE:whoami', { env: { FAKE_ACP_LOAD: '1' } });
    const first = await run(['--allow-acp', 'fake']);
    expect(first.code, first.stderr).toBe(0);
    const before = childEnd(eventsOf(first.stdout));
    const earlier = /pid=(\d+) session=(\S+)/.exec(before?.output ?? '');
    expect(earlier, JSON.stringify(before)).not.toBeNull();
    // Kept for the thread while the CLI ran; ended with it.
    expect(() => process.kill(Number(earlier![1]), 0)).toThrow();

    const top = eventsOf(first.stdout).find((e) => e.kind === 'run.started' && e.parentRunId === null)!.threadId;
    await writeFile(
      join(ws, 'script.json'),
      JSON.stringify({
        agents: {
          supervisor: [
            {
              toolCalls: [
                { tool: 'delegate_task', input: { task: 'MODE:whoami again', agents: ['fake'], continueThreadId: before!.threadId } },
              ],
            },
            { text: 'Supervisor done' },
          ],
        },
      }),
    );
    const second = await startCli(built.path, ['run', '--json', '--allow-acp', 'fake', '--thread', top, 'go on'], { cwd: ws });
    expect(second.code, second.stderr).toBe(0);
    const after = childEnd(eventsOf(second.stdout));
    expect(after, JSON.stringify(after)).toMatchObject({ status: 'ok', threadId: before!.threadId });
    const now = /pid=(\d+) session=(\S+)/.exec(after!.output)!;
    expect(now[1]).not.toBe(earlier![1]);
    expect(now[2]).toBe(earlier![2]);
    expect(eventsOf(second.stdout).find((e) => e.kind === 'acp.session')).toMatchObject({ via: 'loaded', sessionId: earlier![2] });
    expect(() => process.kill(Number(now[1]), 0)).toThrow();
  });

  it("an agent that never answers initialize is ended by the run's timeout while it starts (no hang)", async () => {
    await acpWorkspace(ws, 'MODE:stream', { env: { FAKE_ACP_NO_INIT: '1' }, timeoutMs: 2000 });
    const out = await run(['--allow-acp', 'fake']);
    const end = childEnd(eventsOf(out.stdout));
    expect(end?.status).toBe('timeout');
    expect(end?.error).toContain('Timed out after 2000 ms');
    expect(out.code, out.stderr).toBe(0);
  });

  it('our API keys do not reach the agent unless its env names them; its own env does', async () => {
    await acpWorkspace(ws, 'MODE:env', { env: { FAKE_EXTRA: 'given' } });
    const out = await run(['--allow-acp', 'fake'], { OPENAI_API_KEY: 'sk-our-secret-key-123456' });
    expect(childEnd(eventsOf(out.stdout))?.output).toBe('OPENAI_API_KEY=(none) FAKE_EXTRA=given');
  });

  it('attack: a workspace-declared agent whose env names our key is refused, saying why', async () => {
    await acpWorkspace(ws, 'MODE:env', { env: { OPENAI_API_KEY: '${env:OPENAI_API_KEY}' } });
    const out = await run(['--allow-acp', 'fake'], { OPENAI_API_KEY: 'sk-our-secret-key-123456' });
    const end = childEnd(eventsOf(out.stdout));
    expect(end?.status).toBe('error');
    expect(end?.error).toContain('never given to an agent the workspace declared');
    expect(out.stdout).not.toContain('sk-our-secret-key-123456');
  });

  it('attack: an agent that floods updates is drawn and finishes', async () => {
    await acpWorkspace(ws, 'MODE:flood');
    const out = await run(['--allow-acp', 'fake']);
    const end = childEnd(eventsOf(out.stdout));
    expect(end?.status).toBe('ok');
    expect(end?.output).toBe(`${'x'.repeat(5000)} flood done`);
  });

  it('attack: a message over the size limit ends the agent with an error, not the CLI', async () => {
    await acpWorkspace(ws, 'MODE:huge');
    const out = await run(['--allow-acp', 'fake']);
    const end = childEnd(eventsOf(out.stdout));
    expect(end?.status).toBe('error');
    expect(end?.error).toBe('fake-acp sent one message larger than 8 MB, the most accepted, so it was stopped.');
    expect(out.code, out.stderr).toBe(0);
  });
});
