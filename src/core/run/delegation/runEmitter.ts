import type { RunEvent, RunEventOf, UnsequencedRunEvent } from '../../../shared/events';
import { errorText } from '../../../shared/errorText';
import type { EmitRunEvent, RunEventBody } from '../../runEvents';
import { StreamRedaction } from '../../access/secrets/redactEvents';
import type { RunHandle } from './runHandle';
import type { Session } from './session';

/**
 * Writes one run's events: stamps them with the run's identity and the time, appends them to the
 * store, hands them to the engine's listeners, and keeps what the run's end needs to know: its
 * tool calls still open, and whether the store stopped taking its events.
 *
 * Streamed text is written a burst at a time: the deltas that arrive before the event loop's next
 * turn (a fast model's network read often holds dozens) become one `text.delta`, written at that
 * turn or before the run's next other event (but run.usage), whichever comes first: one line in
 * the thread file and one event for the listeners per burst, not per token. Text that comes apart
 * in time is written as it comes.
 */
export class RunEmitter {
  /** For the agent loop and the tools: events after run.finished are dropped. */
  readonly emit: EmitRunEvent = (body) => void this.write(body);
  private closed = false;
  /** The text of the burst under way, and the turn that writes it. */
  private burst = '';
  private burstTurn: NodeJS.Immediate | undefined;
  private failure: string | undefined;
  private readonly openCalls = new Map<string, string>();
  /** Calls whose approval was not given: their error is a denial, not a failure of the work. */
  private readonly notApproved = new Set<string>();
  private failedCalls = 0;
  private readonly redaction: StreamRedaction;

  constructor(
    private readonly session: Session,
    private readonly run: RunHandle,
  ) {
    this.redaction = new StreamRedaction(session.redactor);
  }

  /** Tool calls of this run that failed (not denied, not cut off by the run's end): its parent is told. */
  get failedToolCalls(): number {
    return this.failedCalls;
  }

  /** Why the store refused this run's events, once it has; the run is stopped then. */
  get writeFailure(): string | undefined {
    return this.failure;
  }

  /**
   * Every tool call that started and did not finish gets a `tool.finished` with an error, so
   * nothing of a run that ended keeps spinning (a tool that ignored the abort may still be going).
   */
  closeOpenToolCalls(reason: string): void {
    for (const [toolCallId, tool] of [...this.openCalls]) {
      this.notApproved.add(toolCallId);
      this.write({ kind: 'tool.finished', toolCallId, tool, output: reason, isError: true });
    }
  }

  /** Writes run.finished, the run's last event; undefined when the store refused it. */
  finish(body: Extract<RunEventBody, { kind: 'run.finished' }>): RunEventOf<'run.finished'> | undefined {
    const written = this.write(body);
    this.closed = true;
    return written as RunEventOf<'run.finished'> | undefined;
  }

  /** Nothing more is written for this run (whatever happened to its run.finished). */
  close(): void {
    this.flushText();
    this.closed = true;
  }

  private write(body: RunEventBody): RunEvent | undefined {
    if (this.closed) return undefined;
    if (body.kind === 'text.delta') {
      this.burst += body.text;
      this.burstTurn ??= setImmediate(() => this.flushText());
      return undefined;
    }
    // A call's usage comes from the model's layer as its stream ends, ahead of the text the agent
    // loop has still to read: it has no place in the text, so it does not cut the burst.
    if (body.kind !== 'run.usage') this.flushText();
    return this.pass(body);
  }

  /** Writes the burst's text now, as one text.delta, if there is any (a store that refuses it stops the run). */
  flushText(): void {
    if (this.burstTurn) clearImmediate(this.burstTurn);
    this.burstTurn = undefined;
    if (!this.burst || this.closed) return;
    const text = this.burst;
    this.burst = '';
    this.pass({ kind: 'text.delta', text });
  }

  private pass(body: RunEventBody): RunEvent | undefined {
    // Secrets never leave (issue 9): what is written is redacted; a streamed tail may wait for the next piece.
    return this.redaction.pass(body, (clean) => this.append(clean));
  }

  private append(body: RunEventBody): RunEvent | undefined {
    const { session, run } = this;
    const event = { ...body, v: 1, threadId: run.threadId, runId: run.runId, ts: session.clock.now() } as UnsequencedRunEvent;
    let stamped: RunEvent;
    try {
      stamped = session.store.append(event);
    } catch (error) {
      this.refused(error);
      return undefined;
    }
    this.track(body);
    session.publish(stamped);
    return stamped;
  }

  /** The store took no more of this run (its thread was deleted, the disk is full): the run stops. */
  private refused(error: unknown): void {
    if (this.failure !== undefined) return;
    this.failure = errorText(error);
    this.session.logger.error(`The thread of the "${this.run.agent}" run could not be written (${this.failure}); the run is stopped.`);
    this.run.cancel(new Error('the thread could not be written'));
  }

  private track(body: RunEventBody): void {
    if (body.kind === 'tool.started') this.openCalls.set(body.toolCallId, body.tool);
    else if (body.kind === 'approval.resolved' && body.decision === 'denied') this.notApproved.add(body.toolCallId);
    else if (body.kind === 'tool.finished') {
      this.openCalls.delete(body.toolCallId);
      if (body.isError && !this.notApproved.has(body.toolCallId)) this.failedCalls++;
    }
    const item = progressItem(body);
    if (item) this.run.noteProgress(item);
  }
}

/** A line for background_runs' status: what the run did last. Text deltas are too fine to list. */
function progressItem(body: RunEventBody): string | undefined {
  switch (body.kind) {
    case 'tool.started':
      return `called ${body.tool}`;
    case 'tool.finished':
      return `${body.tool} ${body.isError ? 'failed' : 'returned'}`;
    case 'warning':
      return `warning: ${body.message}`;
    case 'approval.requested':
      return `waiting for approval of ${body.tool}`;
    default:
      return undefined;
  }
}
