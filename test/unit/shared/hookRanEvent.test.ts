import { describe, expect, it } from 'vitest';
import { runEventSchema, type RunEvent } from '../../../src/shared/events';
import { EMPTY_TREE, foldRunEvents } from '../../../src/shared/runTree';

const base = { v: 1 as const, threadId: 't1', runId: 'r1', ts: 1 };
const started: RunEvent = {
  ...base,
  seq: 0,
  kind: 'run.started',
  parentRunId: null,
  agent: 'supervisor',
  agentPath: ['supervisor'],
  depth: 0,
  task: 'go',
  model: 'scripted:x',
};

describe('hook.ran', () => {
  it('is a RunEvent, folded onto its run; a thread without hooks has none', () => {
    const ran = runEventSchema.parse({
      ...base,
      seq: 1,
      kind: 'hook.ran',
      event: 'PreToolUse',
      command: './guard.sh',
      source: '.claude/settings.json',
      exitCode: 2,
      durationMs: 12,
      decision: 'deny',
      note: 'no',
      toolCallId: 'c1',
    });
    const tree = foldRunEvents(EMPTY_TREE, [started, ran]);
    expect(tree.runs.r1!.hooks).toEqual([
      {
        event: 'PreToolUse',
        command: './guard.sh',
        source: '.claude/settings.json',
        exitCode: 2,
        durationMs: 12,
        decision: 'deny',
        note: 'no',
        toolCallId: 'c1',
      },
    ]);
    expect(foldRunEvents(EMPTY_TREE, [started]).runs.r1!.hooks).toBeUndefined();
  });
});
