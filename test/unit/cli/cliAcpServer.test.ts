import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RequestError } from '@agentclientprotocol/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildCliForTest, startCli, type BuiltCli } from './cliHarness';
import { startAcpServer, type AcpServerUnderTest } from './acpServerHarness';

// Issue 44 item 8: our supervisor as an ACP agent (`subagents acp`), a real process driven by the
// SDK's client side as Zed drives it, with a scripted model.
vi.setConfig({ testTimeout: 90_000 });

let built: BuiltCli;
let ws: string;
let server: AcpServerUnderTest | undefined;

beforeAll(async () => {
  built = await buildCliForTest();
}, 90_000);
afterAll(() => built.dispose());
beforeEach(async () => {
  ws = await mkdtemp(join(tmpdir(), 'cli-acp-server-ws-'));
  return async () => {
    if (server && server.process.exitCode === null) await server.end();
    server = undefined;
    await rm(ws, { recursive: true, force: true });
  };
});

const script = {
  agents: {
    supervisor: [
      { match: 'look', toolCalls: [{ tool: 'read_file', input: { path: 'notes.md' } }] },
      { match: 'look', text: 'The notes say hello. All good.' },
      { match: 'write', toolCalls: [{ tool: 'write_file', input: { path: 'out.txt', content: 'written by the supervisor' } }] },
      { match: 'write', text: 'Tried to write.' },
      { match: 'slow', toolCalls: [{ tool: 'read_file', input: { path: 'notes.md' } }] },
      { match: 'slow', delayMs: 600_000, text: 'too late' },
      {
        match: 'team',
        toolCalls: [
          {
            tool: 'todo_write',
            input: {
              items: [
                { text: 'Survey', status: 'in_progress' },
                { text: 'Report', status: 'pending' },
              ],
            },
          },
          { tool: 'delegate_task', input: { task: 'survey the notes', agents: ['explore'] } },
        ],
      },
      { match: 'team', text: 'Team done.' },
      { match: 'fail', error: { status: 400, message: 'the model refused the request' } },
      // One after the other, so the second asks only after the first was answered.
      { match: 'twice', toolCalls: [{ tool: 'write_file', input: { path: 'out.txt', content: 'one' } }] },
      { match: 'twice', toolCalls: [{ tool: 'write_file', input: { path: 'out.txt', content: 'two' } }] },
      { match: 'twice', text: 'Wrote twice.' },
    ],
    explore: [
      { match: 'survey', toolCalls: [{ tool: 'read_file', input: { path: 'notes.md' } }] },
      { match: 'survey', text: 'The notes hold one greeting.' },
    ],
  },
};

async function start(answer?: Parameters<typeof startAcpServer>[3]): Promise<AcpServerUnderTest> {
  await writeFile(join(ws, 'notes.md'), 'hello\n');
  await writeFile(join(ws, 'script.json'), JSON.stringify(script));
  server = await startAcpServer(built.path, ws, ['--model', `scripted:${join(ws, 'script.json')}`], answer);
  return server;
}

const text = (s: AcpServerUnderTest) =>
  s.updates
    .flatMap((n) => (n.update.sessionUpdate === 'agent_message_chunk' && n.update.content.type === 'text' ? [n.update.content.text] : []))
    .join('');

describe('subagents acp (issue 44 item 8)', () => {
  it('streams the answer as agent_message_chunk and a read_file as a tool_call with its file; stdout is JSON-RPC only', async () => {
    const s = await start();
    const { sessionId } = await s.connection.agent.request('session/new', { cwd: ws, mcpServers: [] });
    const answer = await s.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'look at the notes' }] });
    expect(answer.stopReason).toBe('end_turn');
    expect(text(s)).toBe('The notes say hello. All good.');
    const call = s.updates.find((n) => n.update.sessionUpdate === 'tool_call')?.update;
    expect(call).toMatchObject({
      title: 'Read notes.md',
      kind: 'read',
      status: 'in_progress',
      locations: [{ path: join(ws, 'notes.md') }],
    });
    const done = s.updates.find((n) => n.update.sessionUpdate === 'tool_call_update')?.update;
    expect(done).toMatchObject({ toolCallId: (call as { toolCallId: string }).toolCallId, status: 'completed' });
    expect(JSON.stringify(done)).toContain('hello');
    expect(s.updates.every((n) => n.sessionId === sessionId)).toBe(true);
    expect(answer._meta).toMatchObject({ subagents: { status: 'ok' } });
    // The thread is ours like any other: kept in the workspace's storage.
    expect(existsSync(join(ws, '.subagents', 'threads'))).toBe(true);
    expect(await s.end()).toBe(0);
    const lines = s.rawStdout().split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
  });

  it('asks the client before a write (session/request_permission with its diff): allowed, the file is written', async () => {
    const s = await start((request) => ({
      outcome: { outcome: 'selected', optionId: request.options.find((o) => o.kind === 'allow_once')!.optionId },
    }));
    const { sessionId } = await s.connection.agent.request('session/new', { cwd: ws, mcpServers: [] });
    const answer = await s.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'write it' }] });
    expect(answer.stopReason).toBe('end_turn');
    expect(s.permissions).toHaveLength(1);
    const asked = s.permissions[0]!;
    expect(asked.sessionId).toBe(sessionId);
    expect(asked.options.map((o) => o.kind)).toEqual(['allow_once', 'allow_always', 'reject_once']);
    expect(asked.toolCall).toMatchObject({ title: 'Write out.txt', kind: 'edit' });
    expect(asked.toolCall.content).toContainEqual({
      type: 'diff',
      path: join(ws, 'out.txt'),
      oldText: null,
      newText: 'written by the supervisor',
    });
    expect(await readFile(join(ws, 'out.txt'), 'utf8')).toBe('written by the supervisor');
    const finished = s.updates.find((n) => n.update.sessionUpdate === 'tool_call_update')?.update;
    expect(finished).toMatchObject({ status: 'completed' });
  });

  it('a rejected write is not written, and the tool call fails', async () => {
    const s = await start((request) => ({
      outcome: { outcome: 'selected', optionId: request.options.find((o) => o.kind === 'reject_once')!.optionId },
    }));
    const { sessionId } = await s.connection.agent.request('session/new', { cwd: ws, mcpServers: [] });
    const answer = await s.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'write it' }] });
    expect(answer.stopReason).toBe('end_turn');
    expect(s.permissions).toHaveLength(1);
    expect(existsSync(join(ws, 'out.txt'))).toBe(false);
    const finished = s.updates.find((n) => n.update.sessionUpdate === 'tool_call_update')?.update;
    expect(finished).toMatchObject({ status: 'failed' });
  });

  it('"Always allow" approves the same tool on the same file for the rest of the session, unasked', async () => {
    const s = await start((request) => ({
      outcome: { outcome: 'selected', optionId: request.options.find((o) => o.kind === 'allow_always')!.optionId },
    }));
    const { sessionId } = await s.connection.agent.request('session/new', { cwd: ws, mcpServers: [] });
    await s.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'twice' }] });
    expect(s.permissions).toHaveLength(1);
    expect(await readFile(join(ws, 'out.txt'), 'utf8')).toBe('two');
  });

  it('a subagent is a "think" tool call with its answer, its own tool calls titled with its name; todo_write is the plan', async () => {
    const s = await start();
    const { sessionId } = await s.connection.agent.request('session/new', { cwd: ws, mcpServers: [] });
    const answer = await s.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'team work' }] });
    expect(answer.stopReason).toBe('end_turn');
    expect(text(s)).toBe('Team done.');
    const updates = s.updates.map((n) => n.update);
    expect(updates.find((u) => u.sessionUpdate === 'plan')).toMatchObject({
      entries: [
        { content: 'Survey', status: 'in_progress' },
        { content: 'Report', status: 'pending' },
      ],
    });
    const calls = updates.flatMap((u) => (u.sessionUpdate === 'tool_call' ? [u] : []));
    expect(calls.map((c) => [c.title, c.kind])).toEqual([
      ['Delegate: survey the notes', 'other'],
      ['explore: survey the notes', 'think'],
      ['explore › Read notes.md', 'read'],
    ]);
    const child = calls[1]!;
    const childEnd = updates.find((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === child.toolCallId);
    expect(childEnd).toMatchObject({
      status: 'completed',
      content: [{ type: 'content', content: { type: 'text', text: 'The notes hold one greeting.' } }],
    });
    // Only the top run speaks in the chat: the subagent's text is its call's result.
    expect(text(s)).not.toContain('greeting');
  });

  it('session/cancel during a slow model call ends the prompt with "cancelled"', async () => {
    const s = await start();
    const { sessionId } = await s.connection.agent.request('session/new', { cwd: ws, mcpServers: [] });
    const prompt = s.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'slow one' }] });
    // The read has finished: the next model call is the slow one.
    await s.until((n) => n.update.sessionUpdate === 'tool_call_update' && n.update.status === 'completed');
    await s.connection.agent.notify('session/cancel', { sessionId });
    const answer = await prompt;
    expect(answer.stopReason).toBe('cancelled');
    expect(text(s)).not.toContain('too late');
    expect(await s.end()).toBe(0);
  });

  it('session/cancel while a permission request waits withdraws it ($/cancel_request), writes nothing and ends the prompt "cancelled"', async () => {
    let asked!: () => void;
    const waiting = new Promise<void>((resolve) => (asked = resolve));
    let withdrawn = false;
    const s = await start(
      (_request, signal) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => {
            withdrawn = true;
            resolve({ outcome: { outcome: 'cancelled' } });
          });
          asked();
        }),
    );
    const { sessionId } = await s.connection.agent.request('session/new', { cwd: ws, mcpServers: [] });
    const prompt = s.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'write it' }] });
    await waiting;
    await s.connection.agent.notify('session/cancel', { sessionId });
    const answer = await prompt;
    expect(answer.stopReason).toBe('cancelled');
    expect(withdrawn).toBe(true);
    expect(existsSync(join(ws, 'out.txt'))).toBe(false);
  });

  it('refuses a session whose cwd is not an absolute path to a folder, with a JSON-RPC error that says so', async () => {
    const s = await start();
    const relative = await s.connection.agent.request('session/new', { cwd: 'some/folder', mcpServers: [] }).catch((e: unknown) => e);
    expect(relative).toBeInstanceOf(RequestError);
    expect(relative).toMatchObject({ code: -32602 });
    expect((relative as Error).message).toMatch(/cwd "some\/folder" is not an absolute path/);
    const missing = await s.connection.agent.request('session/new', { cwd: join(ws, 'nowhere'), mcpServers: [] }).catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: -32602 });
    expect((missing as Error).message).toMatch(/is not an existing folder/);
    const unknown = await s.connection.agent
      .request('session/prompt', { sessionId: 'acp_nope', prompt: [{ type: 'text', text: 'look' }] })
      .catch((e: unknown) => e);
    expect(unknown).toMatchObject({ code: -32002 });
  });

  it('a failed turn says why in the chat and in _meta, and still answers the prompt', async () => {
    const s = await start();
    const { sessionId } = await s.connection.agent.request('session/new', { cwd: ws, mcpServers: [] });
    const answer = await s.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'fail now' }] });
    expect(answer.stopReason).toBe('end_turn');
    expect(answer._meta).toMatchObject({ subagents: { status: 'error' } });
    expect(text(s)).toMatch(/error: .*the model refused the request/);
  });

  it('without a model, session/new is refused with what to do; bad flags exit 2 before serving', async () => {
    server = await startAcpServer(built.path, ws, []);
    const refused = await server.connection.agent.request('session/new', { cwd: ws, mcpServers: [] }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: -32602 });
    expect((refused as Error).message).toMatch(/No model is set: pass --model SPEC/);
    const misplaced = await startCli(built.path, ['acp', '--workspace', ws], { cwd: ws });
    expect(misplaced.code).toBe(2);
    expect(misplaced.stderr).toMatch(/"subagents acp" takes no --workspace: each session works in the folder its client names/);
    const badApproval = await startCli(built.path, ['acp', '--approval', 'yolo'], { cwd: ws });
    expect(badApproval.code).toBe(2);
    const help = await startCli(built.path, ['--help'], { cwd: ws });
    expect(help.stdout).toContain('subagents acp [options]');
  });

  it('session/load in a new process replays the stored conversation, and the next prompt continues its thread', async () => {
    const first = await start();
    const { sessionId } = await first.connection.agent.request('session/new', { cwd: ws, mcpServers: [] });
    const answer = await first.connection.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'look at the notes' }],
    });
    // The session is the thread: its id is the thread's.
    expect(answer._meta).toMatchObject({ subagents: { threadId: sessionId } });
    expect(await first.end()).toBe(0);

    const again = await startAcpServer(built.path, ws, ['--model', `scripted:${join(ws, 'script.json')}`], (request) => ({
      outcome: { outcome: 'selected', optionId: request.options.find((o) => o.kind === 'allow_once')!.optionId },
    }));
    server = again;
    await again.connection.agent.request('session/load', { sessionId, cwd: ws, mcpServers: [] });
    const replayed = again.updates.map((n) => n.update);
    expect(replayed[0]).toEqual({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'look at the notes' } });
    expect(replayed.find((u) => u.sessionUpdate === 'tool_call')).toMatchObject({ title: 'Read notes.md', kind: 'read' });
    expect(text(again)).toBe('The notes say hello. All good.');
    const next = await again.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'write it' }] });
    expect(next._meta).toMatchObject({ subagents: { threadId: sessionId, status: 'ok' } });
    expect(await readFile(join(ws, 'out.txt'), 'utf8')).toBe('written by the supervisor');

    const unknown = await again.connection.agent
      .request('session/load', { sessionId: 't_nosuchthread', cwd: ws, mcpServers: [] })
      .catch((e: unknown) => e);
    expect(unknown).toMatchObject({ code: -32002 });
    expect((unknown as Error).message).toMatch(/There is no session "t_nosuchthread"/);
  });
});
