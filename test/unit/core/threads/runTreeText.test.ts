import { describe, expect, it } from 'vitest';
import { renderRunTree } from '../../../../src/core/storage/threads/runTreeText';
import type { RunEvent } from '../../../../src/shared/events';
import { EMPTY_TREE, foldRunEvents } from '../../../../src/shared/runTree';
import { summarizeToolCall, summaryText } from '../../../../src/shared/toolSummary';

// "Show Run Tree" and `threads show` print each tool call as the panel's row reads it, never its
// input as JSON.

const base = { v: 1 as const, threadId: 't_1', runId: 'r_top' };
let seq = 0;
const at = (ts: number) => ({ ...base, seq: ++seq, ts });

function call(id: string, tool: string, input: unknown, output: unknown, isError = false, tookMs = 10): RunEvent[] {
  return [
    { ...at(1010), kind: 'tool.started', toolCallId: id, tool, input },
    { ...at(1010 + tookMs), kind: 'tool.finished', toolCallId: id, tool, output, isError },
  ];
}

const events: RunEvent[] = [
  {
    ...at(1000),
    kind: 'run.started',
    parentRunId: null,
    agent: 'supervisor',
    agentPath: ['supervisor'],
    depth: 0,
    task: 'Fix the rounding',
    model: 'scripted:demo.json',
  },
  ...call(
    'read',
    'read_file',
    { path: 'src/x.ts', startLine: 1, endLine: 40 },
    { path: 'src/x.ts', startLine: 1, endLine: 40, content: 'x' },
  ),
  ...call('run', 'run_command', { command: 'npm test' }, { exitCode: 1, output: 'FAIL' }, false, 2300),
  ...call('grep', 'search_text', { pattern: 'foo', glob: 'src/**' }, { matches: ['src/a.ts:1: foo'] }),
  { ...at(1030), kind: 'tool.started', toolCallId: 'edit', tool: 'edit_file', input: { path: 'src/a.ts', oldText: 'a\n', newText: 'b\n' } },
  { ...at(1031), kind: 'approval.requested', approvalId: 'a1', toolCallId: 'edit', tool: 'edit_file', input: {} },
  { ...at(1032), kind: 'approval.resolved', approvalId: 'a1', toolCallId: 'edit', tool: 'edit_file', input: {}, decision: 'approved' },
  { ...at(1033), kind: 'tool.finished', toolCallId: 'edit', tool: 'edit_file', output: { path: 'src/a.ts', line: 3 }, isError: false },
  ...call('bad', 'edit_file', { path: 'src/b.ts', oldText: 'zz', newText: 'y' }, { error: 'oldText was not found in src/b.ts' }, true),
  ...call('mcp', 'github_issues', { query: 'is:open label:bug', limit: 5 }, { items: [] }),
  {
    ...at(1200),
    kind: 'run.finished',
    status: 'ok',
    output: 'Fixed.',
    usage: { inputTokens: 10, outputTokens: 4, totalTokens: 14 },
    durationMs: 200,
  },
];

describe('the run tree as text', () => {
  const tree = foldRunEvents(EMPTY_TREE, events);
  const lines = renderRunTree(tree, 2000).split('\n');

  it('prints tool calls as readable sentences, not JSON', () => {
    expect(lines.slice(1, 7)).toEqual([
      '  - Read src/x.ts lines 1–40',
      '  - Ran npm test · exit 1 · 2.3s',
      '  - Searched for foo in src/** · 1 match',
      '  - Edited src/a.ts +1 −1 · approved',
      '  - Edited src/b.ts +1 −1 · failed: oldText was not found in src/b.ts',
      '  - github_issues is:open label:bug',
    ]);
    expect(lines.join('\n')).not.toMatch(/[{}"]/);
  });

  it('agrees with the panel: each line is the summary its tool call row shows', () => {
    const calls = tree.runs.r_top!.toolCalls;
    for (const [i, c] of calls.entries()) expect(lines[1 + i]).toContain(summaryText(summarizeToolCall(c)));
  });
});
