import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../src/shared/events';
import { EMPTY_TREE, foldRunEvents, reduceRunTree } from '../../../src/shared/runTree';
import { runTotals, walkRuns } from '../../../src/shared/runTotals';

let seq = 0;
const at = (runId: string, ts: number) => ({ v: 1 as const, threadId: runId === 'root' ? 't' : `t-${runId}`, runId, seq: ++seq, ts });
const usage = (n: number) => ({ inputTokens: n, outputTokens: n, totalTokens: 2 * n });
const events: RunEvent[] = [
  {
    ...at('root', 0),
    kind: 'run.started',
    parentRunId: null,
    agent: 'supervisor',
    agentPath: ['supervisor'],
    depth: 0,
    task: 'go',
    model: 'm',
  },
  { ...at('root', 1), kind: 'tool.started', toolCallId: 'c1', tool: 'delegate_task', input: {} },
  { ...at('a', 2), kind: 'run.started', parentRunId: 'root', agent: 'a', agentPath: ['supervisor', 'a'], depth: 1, task: 't', model: 'm' },
  { ...at('a', 3), kind: 'text.delta', text: 'he' },
  { ...at('a', 4), kind: 'tool.started', toolCallId: 'w1', tool: 'write_file', input: { path: 'x' } },
  {
    ...at('a', 5),
    kind: 'approval.requested',
    approvalId: 'ap1',
    toolCallId: 'w1',
    tool: 'write_file',
    input: { path: 'x' },
    reason: 'writes',
  },
  {
    ...at('a', 6),
    kind: 'approval.resolved',
    approvalId: 'ap1',
    toolCallId: 'w1',
    tool: 'write_file',
    input: { path: 'x' },
    decision: 'approved',
  },
  { ...at('a', 7), kind: 'tool.finished', toolCallId: 'w1', tool: 'write_file', output: 'ok', isError: false },
  { ...at('a', 8), kind: 'text.delta', text: 'llo' },
  { ...at('a', 9), kind: 'run.finished', status: 'ok', output: 'hello', usage: usage(3), durationMs: 7 },
  { ...at('root', 10), kind: 'tool.finished', toolCallId: 'c1', tool: 'delegate_task', output: [], isError: false },
  { ...at('root', 11), kind: 'warning', message: 'careful' },
  { ...at('root', 12), kind: 'run.finished', status: 'ok', output: 'done', usage: usage(5), durationMs: 12 },
];

describe('the run tree reducer', () => {
  it('folds a batch to the same tree as one event at a time, and never changes the tree it was given', () => {
    const batch = foldRunEvents(EMPTY_TREE, events);
    let single = EMPTY_TREE;
    for (const e of events) {
      const before = JSON.stringify(single);
      const next = reduceRunTree(single, e);
      expect(JSON.stringify(single)).toBe(before);
      single = next;
    }
    expect(JSON.stringify(single.runs)).toBe(JSON.stringify(batch.runs));
    expect(single.roots).toEqual(batch.roots);
    expect(JSON.stringify(EMPTY_TREE)).toBe(JSON.stringify({ runs: {}, roots: [], lastSeq: {}, version: 0 }));
  });

  it('builds the tree: children under parents, tool calls with approvals, output, warnings, last seq per thread', () => {
    const tree = foldRunEvents(EMPTY_TREE, events);
    expect(walkRuns(tree).map((r) => [r.agent, r.depth, r.state])).toEqual([
      ['supervisor', 0, 'ok'],
      ['a', 1, 'ok'],
    ]);
    const a = tree.runs['a']!;
    expect(a.text).toBe('hello');
    expect(a.toolCalls).toEqual([
      {
        toolCallId: 'w1',
        tool: 'write_file',
        input: { path: 'x' },
        state: 'done',
        output: 'ok',
        approval: { approvalId: 'ap1', reason: 'writes', decision: 'approved' },
        startedAt: 4,
        finishedAt: 7,
      },
    ]);
    expect(tree.runs['root']!.warnings).toEqual(['careful']);
    expect(tree.lastSeq).toEqual({ t: 13, 't-a': 10 });
  });

  it('rolls tokens up the subtree; time is the run own wall time', () => {
    const tree = foldRunEvents(EMPTY_TREE, events);
    expect(runTotals(tree, 'root')).toEqual({ usage: usage(8), durationMs: 12, runs: 2, active: 0 });
  });

  it('closes tool calls left running when their run ends, and ignores events of runs it never saw start', () => {
    const open: RunEvent[] = [
      { ...at('x', 0), kind: 'run.started', parentRunId: null, agent: 'x', agentPath: ['x'], depth: 0, task: 't', model: 'm' },
      { ...at('x', 1), kind: 'tool.started', toolCallId: 'k', tool: 'run_command', input: {} },
      { ...at('x', 2), kind: 'run.finished', status: 'cancelled', output: '', usage: usage(0), durationMs: 1 },
      { ...at('ghost', 3), kind: 'text.delta', text: 'boo' },
    ];
    const tree = foldRunEvents(EMPTY_TREE, open);
    expect(tree.runs['x']!.toolCalls[0]!.state).toBe('error');
    // It ended when its run did: the row can say how long it ran.
    expect([tree.runs['x']!.toolCalls[0]!.startedAt, tree.runs['x']!.toolCalls[0]!.finishedAt]).toEqual([1, 2]);
    expect(tree.runs['ghost']).toBeUndefined();
  });

  it('folds each event once: a snapshot and a live stream that overlaps it give the tree of the events alone', () => {
    const whole = foldRunEvents(EMPTY_TREE, events);
    // A load that saw the first 8 events, then the stream from event 5 on (subscribed before the load).
    const snapshot = foldRunEvents(EMPTY_TREE, events.slice(0, 8));
    const overlapped = foldRunEvents(snapshot, events.slice(4));
    expect(overlapped.runs).toEqual(whole.runs);
    expect(overlapped.runs['a']!.text).toBe('hello');
    expect(overlapped.runs['a']!.toolCalls).toHaveLength(1);
    expect(overlapped.lastSeq).toEqual(whole.lastSeq);
    // A batch of nothing but repeats changes nothing: the same tree comes back.
    expect(foldRunEvents(whole, events.slice(2, 6))).toBe(whole);
    // Per thread: a repeat in one thread does not hide a new event of another.
    const other = {
      ...at('b', 20),
      threadId: 't-other',
      seq: 1,
      kind: 'run.started',
      parentRunId: null,
      agent: 'b',
      agentPath: ['b'],
      depth: 0,
      task: 'b',
      model: 'm',
    } as RunEvent;
    expect(foldRunEvents(whole, [events[3]!, other]).runs['b']?.state).toBe('running');
  });

  it('settles what a finished run left waiting: no live approval, no running call', () => {
    const waiting: RunEvent[] = [
      { ...at('y', 0), kind: 'run.started', parentRunId: null, agent: 'y', agentPath: ['y'], depth: 0, task: 't', model: 'm' },
      { ...at('y', 1), kind: 'tool.started', toolCallId: 'w', tool: 'write_file', input: { path: 'a' } },
      { ...at('y', 2), kind: 'approval.requested', approvalId: 'ap', toolCallId: 'w', tool: 'write_file', input: { path: 'a' } },
      { ...at('y', 3), kind: 'tool.started', toolCallId: 'd', tool: 'write_file', input: { path: 'b' } },
      { ...at('y', 4), kind: 'approval.requested', approvalId: 'ap2', toolCallId: 'd', tool: 'write_file', input: { path: 'b' } },
      {
        ...at('y', 5),
        kind: 'approval.resolved',
        approvalId: 'ap2',
        toolCallId: 'd',
        tool: 'write_file',
        input: { path: 'b' },
        decision: 'denied',
      },
      { ...at('y', 6), kind: 'tool.finished', toolCallId: 'd', tool: 'write_file', output: 'denied', isError: true },
    ];
    const before = foldRunEvents(EMPTY_TREE, waiting);
    expect(before.runs['y']!.toolCalls[0]!.approval?.decision).toBeUndefined();
    for (const status of ['interrupted', 'cancelled', 'ok'] as const) {
      const tree = reduceRunTree(before, { ...at('y', 7), kind: 'run.finished', status, output: '', usage: usage(0), durationMs: 1 });
      const [open, answered] = tree.runs['y']!.toolCalls;
      expect(open).toMatchObject({ state: 'error', approval: { approvalId: 'ap', decision: 'expired' } });
      // What was answered stays as answered.
      expect(answered).toMatchObject({ state: 'error', approval: { approvalId: 'ap2', decision: 'denied' } });
      // The tree it was given is untouched.
      expect(before.runs['y']!.toolCalls[0]!.approval?.decision).toBeUndefined();
    }
  });
});

describe('the run tree: what controlling a child adds', () => {
  const start = (runId: string, ts: number, parent: string | null = null): RunEvent => ({
    ...at(runId, ts),
    kind: 'run.started',
    parentRunId: parent,
    agent: runId,
    agentPath: [runId],
    depth: parent ? 1 : 0,
    task: 't',
    model: 'vscode-lm:copilot/claude-sonnet-4.5',
    ...(parent ? { modelVia: 'fallback: "sonnet", a built-in alias' } : {}),
  });
  const config = {
    profileSource: '.vscode/agents/k.md',
    model: { requested: 'sonnet', effective: 'vscode-lm:copilot/claude-sonnet-4.5', via: 'the alias' },
    tools: { effective: ['read_file'], removed: [{ tool: 'run_command', reason: "in the profile's disallowedTools" }] },
    limits: { maxSteps: { value: 25, source: 'the default (25)' }, maxTokens: { value: 1000, source: 'the "k" profile\'s maxTokens' } },
    systemPrompt: 'You are k.',
    taskMessage: 't',
  };

  it('keeps the run.config, how the model was reached, the live usage and the messages in their place', () => {
    const tree = foldRunEvents(EMPTY_TREE, [
      start('p', 0),
      start('k', 1, 'p'),
      { ...at('k', 2), kind: 'run.config', ...config },
      { ...at('k', 3), kind: 'run.usage', usage: usage(100) },
      { ...at('k', 4), kind: 'tool.started', toolCallId: 'c', tool: 'read_file', input: {} },
      { ...at('k', 5), kind: 'run.message', from: 'user', text: 'also the tests' },
      { ...at('k', 6), kind: 'run.usage', usage: usage(300) },
    ]);
    const k = tree.runs['k']!;
    expect(k.config).toEqual(config);
    expect(k.modelVia).toBe('fallback: "sonnet", a built-in alias');
    expect(k.usage).toEqual(usage(300));
    expect(runTotals(tree, 'p').usage).toEqual(usage(300));
    expect(k.messages).toEqual([{ from: 'user', text: 'also the tests', ts: 5, afterToolCalls: 1 }]);
    // Its end has the final count, whatever a late usage event says.
    const ended = foldRunEvents(tree, [
      { ...at('k', 7), kind: 'run.finished', status: 'cancelled', output: 'half', usage: usage(310), durationMs: 7 },
      { ...at('k', 8), kind: 'run.usage', usage: usage(999) },
    ]);
    expect(ended.runs['k']!.usage).toEqual(usage(310));
  });

  it('marks a stalled run until its next sign of life; a finished run is never stalled', () => {
    const stalled = foldRunEvents(EMPTY_TREE, [start('s', 0), { ...at('s', 1), kind: 'warning', code: 'stall', message: 'Stalled?' }]);
    expect(stalled.runs['s']!.stalled).toBe(true);
    expect(stalled.runs['s']!.warnings).toEqual(['Stalled?']);
    const moving = reduceRunTree(stalled, { ...at('s', 2), kind: 'text.delta', text: 'x' });
    expect(moving.runs['s']!.stalled).toBeUndefined();
    expect(stalled.runs['s']!.stalled).toBe(true);
    const ended = reduceRunTree(stalled, {
      ...at('s', 3),
      kind: 'run.finished',
      status: 'error',
      output: '',
      usage: usage(1),
      durationMs: 3,
    });
    expect(ended.runs['s']!.stalled).toBeUndefined();
  });
});
