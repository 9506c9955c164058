import { ROOT_CONTEXT, SpanKind, trace, type Context, type Span, type Tracer } from '@opentelemetry/api';
import type { RunEvent, RunEventOf } from '../../../shared/events';
import { finishedAttributes, runSpanStatus, startedAttributes } from './genAiAttributes';
import { RunTracer } from './runTracer';

interface OpenRun {
  span: Span;
  context: Context;
}

/**
 * The spans of the runs, parented as the run tree is: a top run is a trace's root; a child run goes
 * under the execute_tool span of the parent's call that started it (delegate_task),
 * or under the parent's run span when that call has none. Opened and closed by the runs' events.
 */
export class RunSpans {
  private readonly runs = new Map<string, OpenRun>();
  /** The execute_tool spans of the open runs' calls, by run and call id. */
  private readonly calls = new Map<string, Context>();

  constructor(
    private readonly tracer: Tracer,
    private readonly recordContent: boolean,
  ) {}

  observe(event: RunEvent): void {
    if (event.kind === 'run.started') this.start(event);
    else if (event.kind === 'run.finished') this.finish(event);
  }

  /** The tracer the ai SDK's OpenTelemetry integration gets for one model loop of this run. */
  tracerFor(runId: string): Tracer {
    return new RunTracer(
      this.tracer,
      () => this.runs.get(runId)?.span,
      (toolCallId, context) => this.calls.set(callKey(runId, toolCallId), context),
    );
  }

  private start(e: RunEventOf<'run.started'>): void {
    const parent = this.parentOf(e);
    const span = this.tracer.startSpan(
      `invoke_agent ${e.agent}`,
      { kind: SpanKind.INTERNAL, attributes: startedAttributes(e, this.recordContent) },
      parent,
    );
    this.runs.set(e.runId, { span, context: trace.setSpan(parent, span) });
  }

  private parentOf(e: RunEventOf<'run.started'>): Context {
    if (e.parentRunId === null) return ROOT_CONTEXT;
    const call = e.parentToolCallId === undefined ? undefined : this.calls.get(callKey(e.parentRunId, e.parentToolCallId));
    return call ?? this.runs.get(e.parentRunId)?.context ?? ROOT_CONTEXT;
  }

  private finish(e: RunEventOf<'run.finished'>): void {
    const run = this.runs.get(e.runId);
    if (!run) return;
    this.runs.delete(e.runId);
    const prefix = callKey(e.runId, '');
    for (const key of this.calls.keys()) if (key.startsWith(prefix)) this.calls.delete(key);
    run.span.setAttributes(finishedAttributes(e, this.recordContent));
    run.span.setStatus(runSpanStatus(e));
    run.span.end();
  }
}

const callKey = (runId: string, toolCallId: string) => `${runId}\u0000${toolCallId}`;
