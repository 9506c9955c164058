import type { RunEvent, UnsequencedRunEvent } from '../../../shared/events';
import { ZERO_USAGE } from '../../../shared/usage';

export const INTERRUPTED_MESSAGE = 'The run was interrupted: the process running it ended before the run finished.';

/**
 * run.finished events (status `interrupted`) for the runs of a thread that started and never
 * finished: the process that ran them is gone. Output is the text streamed so far; the time is
 * when the run was last heard from.
 */
export function closeInterruptedRuns(events: readonly RunEvent[]): UnsequencedRunEvent[] {
  const open = new Map<string, { threadId: string; startedAt: number; lastTs: number; text: string[] }>();
  for (const e of events) {
    if (e.kind === 'run.started') {
      open.set(e.runId, { threadId: e.threadId, startedAt: e.ts, lastTs: e.ts, text: [] });
      continue;
    }
    const run = open.get(e.runId);
    if (!run) continue;
    if (e.kind === 'run.finished') {
      open.delete(e.runId);
      continue;
    }
    run.lastTs = Math.max(run.lastTs, e.ts);
    if (e.kind === 'text.delta') run.text.push(e.text);
  }
  const closed: UnsequencedRunEvent[] = [];
  for (const [runId, run] of open) {
    closed.push({
      v: 1,
      kind: 'run.finished',
      threadId: run.threadId,
      runId,
      ts: run.lastTs,
      status: 'interrupted',
      output: run.text.join(''),
      error: INTERRUPTED_MESSAGE,
      usage: { ...ZERO_USAGE },
      durationMs: Math.max(0, run.lastTs - run.startedAt),
    });
  }
  return closed;
}

/** The events with these ends after them, numbered on from the last, for a view that writes nothing. */
export function withEnds(events: readonly RunEvent[], ends: readonly UnsequencedRunEvent[]): RunEvent[] {
  let seq = events.reduce((max, e) => Math.max(max, e.seq), 0);
  return [...events, ...ends.map((end) => ({ ...end, seq: ++seq }) as RunEvent)];
}
