import { describe, expect, it } from 'vitest';
import { exportThread } from '../../../../src/core/storage/threads/exportThread';
import { renderRunTree } from '../../../../src/core/storage/threads/runTreeText';
import type { LoadedFamily } from '../../../../src/core/storage/threads/threadStore';
import type { RunEvent } from '../../../../src/shared/events';
import { EMPTY_TREE, foldRunEvents } from '../../../../src/shared/runTree';

// The one exporter of a thread, shared by the CLI (`threads export`) and the extension's
// "Subagents: Export Thread": a Markdown document or the events as JSON.

const base = { v: 1 as const, threadId: 't_1' };
const usage = { inputTokens: 10, outputTokens: 4, totalTokens: 14 };
const events: RunEvent[] = [
  {
    ...base,
    runId: 'r_top',
    seq: 1,
    ts: 1000,
    kind: 'run.started',
    parentRunId: null,
    agent: 'supervisor',
    agentPath: ['supervisor'],
    depth: 0,
    task: 'Check the totals\nand the tax',
    model: 'scripted:demo.json',
  },
  {
    ...base,
    runId: 'r_top',
    seq: 2,
    ts: 1001,
    kind: 'tool.started',
    toolCallId: 'c1',
    tool: 'read_file',
    input: { path: 'src/invoice.ts' },
  },
  {
    ...base,
    runId: 'r_top',
    seq: 3,
    ts: 1002,
    kind: 'tool.finished',
    toolCallId: 'c1',
    tool: 'read_file',
    output: { content: 'x' },
    isError: false,
  },
  {
    ...base,
    threadId: 'c_1',
    runId: 'r_child',
    seq: 1,
    ts: 1003,
    kind: 'run.started',
    parentRunId: 'r_top',
    parentThreadId: 't_1',
    agent: 'reviewer',
    agentPath: ['supervisor', 'reviewer'],
    depth: 1,
    task: 'Review it',
    model: 'scripted:demo.json',
  },
  {
    ...base,
    threadId: 'c_1',
    runId: 'r_child',
    seq: 2,
    ts: 1100,
    kind: 'run.finished',
    status: 'ok',
    output: 'Looks **fine**.',
    usage,
    durationMs: 97,
  },
  { ...base, runId: 'r_top', seq: 4, ts: 1200, kind: 'run.finished', status: 'ok', output: 'All good.', usage, durationMs: 200 },
];
const meta = {
  id: 't_1',
  title: 'Check the totals',
  parentThreadId: null,
  agent: 'supervisor',
  createdAt: 1000,
  updatedAt: 1200,
  runCount: 1,
  status: 'ok',
} as const;
const family: LoadedFamily = {
  meta,
  threads: [meta],
  events,
  warnings: [],
};

describe('exportThread', () => {
  it('writes Markdown: a heading per run under its parent, the task quoted, tool calls, the output as it is', () => {
    const md = exportThread(family, 'md', 2000);
    expect(md.fileExtension).toBe('md');
    expect(md.text).toMatch(/^# Check the totals\n\nThread `t_1` · supervisor · started 1970-01-01T00:00:01.000Z\n/);
    expect(md.text).toContain('## supervisor: Check the totals and the tax');
    expect(md.text).toContain('> Check the totals\n> and the tax');
    // A tool call in words, as Show Run Tree reads it, not its input as JSON.
    expect(md.text).toContain('**Tool calls**\n\n- Read src/invoice.ts\n');
    expect(md.text).not.toContain('{"path"');
    expect(md.text).toContain('### reviewer: Review it');
    expect(md.text).toContain('**Output**\n\nLooks **fine**.');
  });

  it('writes a tool call in words whose agent-written parts cannot form Markdown: no link, image, HTML or closed code span', () => {
    const call = (toolCallId: string, tool: string, input: unknown, output: unknown, seq: number): RunEvent[] => [
      { ...base, runId: 'r_top', seq, ts: 1001, kind: 'tool.started', toolCallId, tool, input },
      { ...base, runId: 'r_top', seq: seq + 1, ts: 1002, kind: 'tool.finished', toolCallId, tool, output, isError: false },
    ];
    const hostile: RunEvent[] = [
      events[0]!,
      ...call('c1', 'read_file', { path: 'a.ts', startLine: 1, endLine: 40 }, { path: 'a.ts', startLine: 1, endLine: 40, content: 'x' }, 2),
      ...call('c2', 'run_command', { command: 'echo `a` ``b``\n# heading' }, { exitCode: 0, output: '' }, 4),
      ...call('c3', 'ask_user', { question: '![x](https://evil.example/p.png) <img src=x> [link](https://evil.example)' }, {}, 6),
      { ...base, runId: 'r_top', seq: 8, ts: 1200, kind: 'run.finished', status: 'ok', output: 'ok', usage, durationMs: 200 },
    ];
    const md = exportThread({ ...family, events: hostile }, 'md', 2000).text;
    const items = md.split('\n').filter((l) => l.startsWith('- '));
    expect(items).toEqual([
      '- Read a.ts lines 1–40',
      '- Ran ```echo `a` ``b`` # heading``` · exit 0 · 0.0s',
      '- Asked you: \\!\\[x\\](https://evil.example/p.png) \\<img src=x\\> \\[link\\](https://evil.example)',
    ]);
  });

  it('writes JSON: the thread, the entries of its family and every event of it, as `threads import` reads it', () => {
    const json = exportThread(family, 'json', 2000);
    expect(json.fileExtension).toBe('json');
    expect(JSON.parse(json.text)).toEqual({ format: 'subagents-thread', version: 1, thread: family.meta, threads: [family.meta], events });
  });

  it('renders the run tree as text for `threads show` and "Show Run Tree"', () => {
    const text = renderRunTree(foldRunEvents(EMPTY_TREE, events), 2000);
    expect(text.split('\n')).toEqual([
      'supervisor [ok] Check the totals and the tax  (200ms · 10 in / 4 out; with 1 subagent run: 20 in / 8 out)',
      '  - Read src/invoice.ts',
      '  => All good.',
      '  reviewer [ok] Review it  (97ms · 10 in / 4 out)',
      '    => Looks **fine**.',
    ]);
  });
});
