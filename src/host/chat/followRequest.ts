import type { Engine } from '../../core/engine/engine';
import type { PromptQueue } from '../../core/engine/requests/promptQueue';
import { sendQueued } from '../../core/engine/requests/sendQueued';
import type { RunEvent, RunEventOf } from '../../shared/events';
import type { ChatCancellationToken } from './chatShapes';

/** The engine as a chat request needs it: its events and its Stop. */
export type ChatEngine = Pick<Engine, 'onEvent' | 'cancel'>;

/** What a chat request hears of its own turn: the top run's text, and each run under it. */
export interface TurnObserver {
  text?(delta: string): void;
  childStarted?(event: RunEventOf<'run.started'>): void;
  childFinished?(event: RunEventOf<'run.finished'>, agent: string): void;
  approval?(event: RunEventOf<'approval.requested'>): void;
}

export interface FollowedRequest {
  threadId: string;
  prompt: string;
  agent?: string;
  model?: string;
}

/**
 * Sends one message through the panel's queue (so a thread never runs two turns at once, whoever
 * sent them) and follows its turn to the end: the top run's text and the runs it started, at any
 * depth. Events that arrive before the queue says which run is ours are held, then replayed.
 * Cancelling takes the message out while it waits, and stops its runs once they work.
 */
export async function followRequest(
  deps: { engine: ChatEngine; queue: PromptQueue },
  request: FollowedRequest,
  observer: TurnObserver,
  token: ChatCancellationToken,
): Promise<RunEventOf<'run.finished'>> {
  const held: RunEvent[] = [];
  const ours = new Set<string>();
  const agents = new Map<string, string>();
  let top: string | undefined;
  const deliver = (e: RunEvent) => {
    if (e.kind === 'run.started' && e.parentRunId !== null && ours.has(e.parentRunId)) {
      ours.add(e.runId);
      agents.set(e.runId, e.agent);
      observer.childStarted?.(e);
      return;
    }
    if (!ours.has(e.runId)) return;
    if (e.kind === 'text.delta' && e.runId === top) observer.text?.(e.text);
    else if (e.kind === 'run.finished' && e.runId !== top) observer.childFinished?.(e, agents.get(e.runId) ?? 'a subagent');
    else if (e.kind === 'approval.requested') observer.approval?.(e);
  };
  const off = deps.engine.onEvent((e) => {
    if (e.kind !== 'run.started' && e.kind !== 'text.delta' && e.kind !== 'run.finished' && e.kind !== 'approval.requested') return;
    if (top === undefined) held.push(e);
    else deliver(e);
  });
  let queued: { id: string; threadId: string } | undefined;
  let cancelled = false;
  const onCancel = token.onCancellationRequested(() => {
    cancelled = true;
    // Still waiting behind other work: it simply never runs.
    if (queued && top === undefined && deps.queue.remove(queued.threadId, queued.id)) return;
    if (top !== undefined) deps.engine.cancel(request.threadId);
  });
  try {
    if (token.isCancellationRequested) throw new Error('Cancelled before it was sent.');
    const sent = await sendQueued(deps.queue, request, (item) => (queued = item));
    top = sent.runId;
    ours.add(top);
    for (const e of held.splice(0)) deliver(e);
    if (cancelled) deps.engine.cancel(request.threadId);
    return await sent.done;
  } finally {
    off();
    onCancel.dispose();
  }
}
