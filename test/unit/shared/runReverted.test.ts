import { describe, expect, it } from 'vitest';
import { changesLeft, runChangesText } from '../../../src/shared/changeSummary';
import { runEventSchema, type RunEvent } from '../../../src/shared/events';
import { EMPTY_TREE, foldRunEvents } from '../../../src/shared/runTree';

const base = { v: 1 as const, threadId: 't1', runId: 'r1', ts: 1 };
const hash = (c: string) => c.repeat(64);
let seq = 0;
const events: RunEvent[] = [
  {
    ...base,
    seq: seq++,
    kind: 'run.started',
    parentRunId: null,
    agent: 'supervisor',
    agentPath: ['supervisor'],
    depth: 0,
    task: 'go',
    model: 'scripted:x',
  },
  ...(['a.ts', 'b.ts', 'c.ts'] as const).map((path, i): RunEvent => ({
    ...base,
    seq: seq++,
    kind: 'file.changed',
    path,
    beforeHash: hash(String(i)),
    // c.ts was changed and taken back by the run itself: nothing to undo there.
    afterHash: path === 'c.ts' ? hash(String(i)) : hash('f'),
    added: 2,
    removed: 1,
    toolCallId: 'call',
    attribution: 'exact',
  })),
  {
    ...base,
    seq: seq++,
    kind: 'run.finished',
    status: 'ok',
    output: 'done',
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    durationMs: 5,
  },
];
const reverted = (files: string[], ts: number) => runEventSchema.parse({ ...base, ts, seq: seq++, kind: 'run.reverted', files });

describe('run.reverted', () => {
  it('is a RunEvent that names at least one file', () => {
    expect(() => runEventSchema.parse({ ...base, seq: 99, kind: 'run.reverted', files: [] })).toThrow();
    expect(
      runEventSchema.parse({
        ...base,
        seq: 99,
        kind: 'run.reverted',
        files: ['a.ts'],
        skipped: [{ path: 'b.ts', reason: 'changed since' }],
      }),
    ).toMatchObject({ files: ['a.ts'] });
  });

  it('folds onto its run, over every revert: the count goes once nothing is left to undo', () => {
    const ran = foldRunEvents(EMPTY_TREE, events).runs.r1!;
    expect(ran.reverted).toBeUndefined();
    expect(runChangesText(ran)).toBe('3 files changed (+6 −3)');
    expect(changesLeft(ran).map((f) => f.path)).toEqual(['a.ts', 'b.ts']);

    const partly = foldRunEvents(EMPTY_TREE, [...events, reverted(['b.ts'], 10)]).runs.r1!;
    expect(partly.reverted).toEqual({ files: ['b.ts'], ts: 10 });
    expect(runChangesText(partly)).toBe('3 files changed (+6 −3), 1 reverted');
    expect(changesLeft(partly).map((f) => f.path)).toEqual(['a.ts']);

    const all = foldRunEvents(EMPTY_TREE, [...events, reverted(['b.ts'], 10), reverted(['a.ts', 'b.ts'], 20)]).runs.r1!;
    expect(all.reverted).toEqual({ files: ['b.ts', 'a.ts'], ts: 20 });
    expect(runChangesText(all)).toBe('changes reverted');
    expect(changesLeft(all)).toEqual([]);
    // The changes themselves stay (their diffs still open).
    expect(all.changes?.files).toHaveLength(3);
  });

  it('a run without changes says nothing about them', () => {
    expect(runChangesText(foldRunEvents(EMPTY_TREE, [events[0]!]).runs.r1!)).toBe('');
  });
});
