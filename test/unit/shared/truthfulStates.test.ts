import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../src/shared/events';
import { EMPTY_TREE, foldRunEvents } from '../../../src/shared/runTree';
import { failedToolCalls } from '../../../src/shared/runTotals';
import { approvalEnd } from '../../../src/shared/approvalEnd';
import { toolDetail } from '../../../src/shared/toolDetail';
import { summarizeToolCall, summaryText } from '../../../src/shared/toolSummary';
import { ThreadScript } from '../../webview/threadScript';

// Issue 42 item 3: a run's state says what happened, and what was meant for the model is not shown as the user's words.

const MODEL_SENTENCE =
  'The user denied this edit_file call (edits a file) Nothing was done. Do not retry it or work around it; if it is needed, say so in your answer and explain why.';

describe('a run whose tool calls failed', () => {
  it('counts a failed edit (oldText not found) but not a denial, nor a call cut off by the run end', () => {
    const s = new ThreadScript('t');
    const events: RunEvent[] = [
      s.started('root'),
      s.started('a', { parent: 'root' }),
      s.toolStarted('a', 'e1', 'edit_file', { path: 'src/invoice.ts', oldText: 'x', newText: 'y' }),
      s.toolFinished('a', 'e1', 'edit_file', { error: 'oldText was not found in src/invoice.ts' }, true),
      s.toolStarted('a', 'e2', 'edit_file', { path: 'src/invoice.ts', oldText: 'a', newText: 'b' }),
      s.approvalRequested('a', 'ap', 'e2', 'edit_file', {}),
      s.approvalResolved('a', 'ap', 'e2', 'edit_file', 'denied'),
      s.toolFinished('a', 'e2', 'edit_file', MODEL_SENTENCE, true),
      s.finished('a', 'ok', 'Edited the invoice.'),
      s.toolStarted('root', 'r1', 'read_file', { path: 'src/a.ts' }),
      s.finished('root', 'cancelled'),
    ];
    const tree = foldRunEvents(EMPTY_TREE, events);
    expect(failedToolCalls(tree.runs.a!)).toBe(1);
    // The root's read was cut off by its end: that is the cancel, not a failure.
    expect(failedToolCalls(tree.runs.root!)).toBe(0);
  });
});

describe('an approval no one answered', () => {
  const edit = { path: 'src/invoice.ts', oldText: 'a', newText: 'b' };
  const waiting = (s: ThreadScript): RunEvent[] => [
    s.started('root'),
    s.toolStarted('root', 'e', 'edit_file', edit),
    s.approvalRequested('root', 'ap', 'e', 'edit_file', edit, 'edits a file'),
  ];

  it('reads "cancelled (stopped)" after Stop, not "denied by you", and shows no model sentence', () => {
    const s = new ThreadScript('t');
    const resolved: RunEvent = { ...s.approvalResolved('root', 'ap', 'e', 'edit_file', 'denied'), cancelled: 'stopped' } as RunEvent;
    const tree = foldRunEvents(EMPTY_TREE, [
      ...waiting(s),
      resolved,
      s.toolFinished('root', 'e', 'edit_file', MODEL_SENTENCE, true),
      s.finished('root', 'cancelled'),
    ]);
    const call = tree.runs.root!.toolCalls[0]!;
    expect(approvalEnd(call)).toBe('cancelled (stopped)');
    expect(summaryText(summarizeToolCall(call))).not.toContain('denied by you');
    expect(summaryText(summarizeToolCall(call))).toContain('cancelled (stopped)');
    const shown = JSON.stringify(toolDetail(call));
    expect(shown).not.toContain('Do not retry');
    expect(shown).not.toContain('The user denied');
    expect(shown).toContain('Not run: cancelled (stopped). Nothing was done.');
  });

  it('reads "cancelled (window reloaded)" when the run was cut off by a reload (closed as interrupted on load)', () => {
    const s = new ThreadScript('t');
    const tree = foldRunEvents(EMPTY_TREE, [...waiting(s), s.finished('root', 'interrupted')]);
    expect(approvalEnd(tree.runs.root!.toolCalls[0]!)).toBe('cancelled (window reloaded)');
    const reloaded: RunEvent = { ...s.approvalResolved('root', 'ap', 'e', 'edit_file', 'denied'), cancelled: 'reloaded' } as RunEvent;
    const again = foldRunEvents(EMPTY_TREE, [...waiting(new ThreadScript('t')), reloaded]);
    expect(approvalEnd(again.runs.root!.toolCalls[0]!)).toBe('cancelled (window reloaded)');
  });

  it('says "denied by you" only when the user denied it, and then shows the diff and a note, not the model sentence', () => {
    const s = new ThreadScript('t');
    const tree = foldRunEvents(EMPTY_TREE, [
      ...waiting(s),
      s.approvalResolved('root', 'ap', 'e', 'edit_file', 'denied'),
      s.toolFinished('root', 'e', 'edit_file', MODEL_SENTENCE, true),
    ]);
    const call = tree.runs.root!.toolCalls[0]!;
    expect(summaryText(summarizeToolCall(call))).toContain('denied by you');
    const detail = toolDetail(call);
    expect(JSON.stringify(detail)).not.toContain('Do not retry');
    expect(detail.output.map((b) => b.kind)).toEqual(['diff', 'note']);
  });
});
