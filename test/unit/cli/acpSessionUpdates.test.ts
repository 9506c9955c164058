import { describe, expect, it } from 'vitest';
import { SessionUpdates } from '../../../src/cli/acpServer/sessionUpdates';
import { toolCallView } from '../../../src/cli/acpServer/toolCallView';
import type { RunEvent } from '../../../src/shared/events';

// How `subagents acp` shows our run tree in an ACP client (issue 44 item 8): the mapping alone.

let seq = 0;
const base = (runId: string, threadId = 't_top') => ({ v: 1 as const, threadId, runId, seq: seq++, ts: 0 });
const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
const started = (runId: string, parentRunId: string | null, agentPath: string[], task = 'do it'): RunEvent => ({
  ...base(runId),
  kind: 'run.started',
  parentRunId,
  agent: agentPath.at(-1)!,
  agentPath,
  depth: agentPath.length - 1,
  task,
  model: 'scripted:s.json',
});

describe('SessionUpdates', () => {
  it("speaks only the top run's text and reasoning in the chat", () => {
    const u = new SessionUpdates('/ws');
    u.updatesOf(started('r1', null, ['supervisor']));
    u.updatesOf(started('r2', 'r1', ['supervisor', 'explore']));
    expect(u.updatesOf({ ...base('r1'), kind: 'text.delta', text: 'hi' })).toEqual([
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } },
    ]);
    expect(u.updatesOf({ ...base('r1'), kind: 'run.reasoning', text: 'hmm' })).toEqual([
      { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'hmm' } },
    ]);
    expect(u.updatesOf({ ...base('r2'), kind: 'text.delta', text: 'child text' })).toEqual([]);
  });

  it("fails a subagent's \"think\" call with its status and error; the top run's end is the prompt's answer, not an update", () => {
    const u = new SessionUpdates('/ws');
    u.updatesOf(started('r1', null, ['supervisor']));
    expect(u.updatesOf(started('r2', 'r1', ['supervisor', 'explore'], 'look around\nand more'))).toMatchObject([
      { sessionUpdate: 'tool_call', toolCallId: 'run/r2', title: 'explore: look around', kind: 'think', status: 'in_progress' },
    ]);
    const end = u.updatesOf({
      ...base('r2'),
      kind: 'run.finished',
      status: 'timeout',
      output: 'partial',
      error: 'ran out of time',
      usage,
      durationMs: 5,
    });
    expect(end).toMatchObject([{ sessionUpdate: 'tool_call_update', toolCallId: 'run/r2', status: 'failed' }]);
    expect(JSON.stringify(end)).toContain('timeout: ran out of time');
    expect(u.updatesOf({ ...base('r1'), kind: 'run.finished', status: 'ok', output: 'x', usage, durationMs: 5 })).toEqual([]);
  });

  it("makes the top run's todo_write the plan (done is completed) and a subagent's an ordinary call", () => {
    const u = new SessionUpdates('/ws');
    u.updatesOf(started('r1', null, ['supervisor']));
    u.updatesOf(started('r2', 'r1', ['supervisor', 'worker']));
    const items = [
      { text: 'a', status: 'done' },
      { text: 'b', status: 'pending' },
    ];
    const plan = u.updatesOf({ ...base('r1'), kind: 'tool.started', toolCallId: 'c1', tool: 'todo_write', input: { items } });
    expect(plan).toEqual([
      {
        sessionUpdate: 'plan',
        entries: [
          { content: 'a', priority: 'medium', status: 'completed' },
          { content: 'b', priority: 'medium', status: 'pending' },
        ],
      },
    ]);
    expect(
      u.updatesOf({ ...base('r1'), kind: 'tool.finished', toolCallId: 'c1', tool: 'todo_write', output: 'ok', isError: false }),
    ).toEqual([]);
    expect(u.updatesOf({ ...base('r2'), kind: 'tool.started', toolCallId: 'c1', tool: 'todo_write', input: { items } })).toMatchObject([
      { sessionUpdate: 'tool_call', toolCallId: 'r2/c1', title: 'worker › todo_write' },
    ]);
  });

  it('cuts a long result for the client, saying how much is left out', () => {
    const u = new SessionUpdates('/ws');
    u.updatesOf(started('r1', null, ['supervisor']));
    const [update] = u.updatesOf({
      ...base('r1'),
      kind: 'tool.finished',
      toolCallId: 'c',
      tool: 'read_file',
      output: 'x'.repeat(5000),
      isError: false,
    });
    expect(JSON.stringify(update)).toContain('… (1000 more characters)');
  });
});

describe('toolCallView', () => {
  it('titles calls by what they touch, and makes a relative path a location under the workspace', () => {
    expect(toolCallView('edit_file', { path: 'src/a.ts' }, '/ws')).toEqual({
      title: 'Edit src/a.ts',
      kind: 'edit',
      locations: [{ path: '/ws/src/a.ts' }],
    });
    expect(toolCallView('run_command', { command: 'npm test\nrm -rf /' }, '/ws', 'worker')).toEqual({
      title: 'worker › Run `npm test`',
      kind: 'execute',
      locations: [],
    });
    expect(toolCallView('search_text', { pattern: 'TODO' }, '/ws').title).toBe('Search TODO');
    expect(toolCallView('web_fetch', { url: 'https://example.com' }, '/ws')).toMatchObject({
      title: 'Fetch https://example.com',
      kind: 'fetch',
    });
    expect(toolCallView('mcp_tool', 'not an object', '/ws')).toEqual({ title: 'mcp_tool', kind: 'other', locations: [] });
  });
});
