import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../src/shared/events';
import { runActivity } from '../../../src/shared/runActivity';
import { EMPTY_TREE, foldRunEvents, type RunTree } from '../../../src/shared/runTree';
import { toolDetail } from '../../../src/shared/toolDetail';

let seq = 0;
const base = (runId: string) => ({ v: 1 as const, threadId: 't', runId, seq: ++seq, ts: seq * 100 });
const started = (runId: string, parent: string | null, agent: string): RunEvent => ({
  ...base(runId),
  kind: 'run.started',
  parentRunId: parent,
  agent,
  agentPath: [agent],
  depth: parent ? 1 : 0,
  task: 'task',
  model: 'm',
});
const tool = (runId: string, id: string, name: string, input: unknown): RunEvent => ({
  ...base(runId),
  kind: 'tool.started',
  toolCallId: id,
  tool: name,
  input,
});
const toolDone = (runId: string, id: string, name: string, output: unknown, isError = false): RunEvent => ({
  ...base(runId),
  kind: 'tool.finished',
  toolCallId: id,
  tool: name,
  output,
  isError,
});
const fold = (events: RunEvent[]): RunTree => foldRunEvents(EMPTY_TREE, events);
const activity = (tree: RunTree, id: string) => runActivity(tree, tree.runs[id]!);

describe("a run's live line", () => {
  it('says what it is doing now, from its last tool call', () => {
    const events = [
      started('root', null, 'supervisor'),
      started('a', 'root', 'researcher'),
      tool('a', 'k1', 'list_dir', { path: 'src' }),
      toolDone('a', 'k1', 'list_dir', { entries: [] }),
      tool('a', 'k2', 'read_file', { path: 'src/invoice.ts' }),
    ];
    expect(activity(fold(events), 'a')).toBe('reading src/invoice.ts');
    expect(activity(fold([...events, toolDone('a', 'k2', 'read_file', { content: '' })]), 'a')).toBe('thinking');
    expect(
      activity(
        fold([
          ...events,
          toolDone('a', 'k2', 'read_file', { content: '' }),
          { ...base('a'), kind: 'text.delta', text: '## Findings\n\n- **Totals** are summed' },
        ]),
        'a',
      ),
    ).toBe('writing: Totals are summed');
  });

  it('puts a waiting approval first, and names the children a delegation waits for', () => {
    const approval = (): RunEvent => ({
      ...base('a'),
      kind: 'approval.requested',
      approvalId: 'ap',
      toolCallId: 'w',
      tool: 'edit_file',
      input: { path: 'src/money.ts' },
    });
    expect(
      activity(
        fold([
          started('root', null, 'supervisor'),
          started('a', 'root', 'scribe'),
          tool('a', 'w', 'edit_file', { path: 'src/money.ts' }),
          approval(),
        ]),
        'a',
      ),
    ).toBe('needs your approval: editing src/money.ts');
    const delegating = fold([
      started('root', null, 'supervisor'),
      tool('root', 'd', 'delegate_task', { task: 't', agents: ['researcher', 'reviewer'] }),
      started('a', 'root', 'researcher'),
      started('b', 'root', 'reviewer'),
    ]);
    expect(activity(delegating, 'root')).toBe('waiting for researcher, reviewer');
  });

  it("shows the answer's first line or the error once the run ended", () => {
    const finished = (status: 'ok' | 'error', output: string, error?: string): RunEvent => ({
      ...base('a'),
      kind: 'run.finished',
      status,
      output,
      ...(error ? { error } : {}),
      usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
      durationMs: 5,
    });
    expect(activity(fold([started('a', null, 'x'), finished('ok', '\n# Totals\nmore')]), 'a')).toBe('Totals');
    expect(activity(fold([started('a', null, 'x'), finished('error', '', 'The model returned 401.')]), 'a')).toBe(
      'The model returned 401.',
    );
  });
});

describe('a tool call opened', () => {
  it('shows the full input, then a terminal block for a command', () => {
    const tree = fold([
      started('a', null, 'x'),
      tool('a', 'c', 'run_command', { command: 'npm test', timeoutMs: 5000 }),
      toolDone('a', 'c', 'run_command', { exitCode: 1, output: 'FAIL src/a.test.ts' }),
    ]);
    expect(toolDetail(tree.runs['a']!.toolCalls[0]!)).toEqual({
      input: [{ name: 'timeoutMs', value: '5000' }],
      output: [{ kind: 'terminal', command: 'npm test', text: 'FAIL src/a.test.ts', status: 'exit 1' }],
    });
  });

  it('shows an edit as a diff, a file as its text and matches as links', () => {
    const tree = fold([
      started('a', null, 'x'),
      tool('a', 'e', 'edit_file', { path: 'src/money.ts', oldText: 'a', newText: 'b' }),
      toolDone('a', 'e', 'edit_file', { path: 'src/money.ts', line: 3 }),
      tool('a', 'r', 'read_file', { path: 'src/a.ts' }),
      toolDone('a', 'r', 'read_file', { path: 'src/a.ts', startLine: 1, endLine: 2, totalLines: 2, content: 'one\ntwo' }),
      tool('a', 's', 'search_text', { pattern: 'TODO' }),
      toolDone('a', 's', 'search_text', { matches: ['src/a.ts:7: // TODO'], note: 'Only the first 200.' }),
      tool('a', 'f', 'read_file', { path: 'nope.ts' }),
      toolDone('a', 'f', 'read_file', { error: 'There is no file nope.ts.' }, true),
    ]);
    const [edit, read, search, failed] = tree.runs['a']!.toolCalls.map(toolDetail);
    expect(edit!.input).toEqual([{ name: 'path', value: 'src/money.ts' }]);
    expect(edit!.output).toEqual([
      {
        kind: 'diff',
        diff: {
          lines: [
            { kind: 'del', text: 'a' },
            { kind: 'add', text: 'b' },
          ],
          added: 1,
          removed: 1,
          omitted: 0,
        },
      },
    ]);
    expect(read!.output).toEqual([{ kind: 'text', title: 'Lines 1–2 of 2', text: 'one\ntwo' }]);
    expect(search!.output).toEqual([
      { kind: 'list', title: 'Matches', items: [{ text: 'src/a.ts:7: // TODO', file: { path: 'src/a.ts', line: 7 } }] },
      { kind: 'note', text: 'Only the first 200.' },
    ]);
    expect(failed!.output).toEqual([{ kind: 'error', text: 'There is no file nope.ts.' }]);
  });
});
