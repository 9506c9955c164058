import { trace, type Context, type Span, type SpanOptions, type Tracer } from '@opentelemetry/api';

/**
 * The tracer the ai SDK's OpenTelemetry integration (@ai-sdk/otel) gets for one model loop of a
 * run. The SDK opens a root span of its own per loop (`invoke_agent`, with no parent): here that is
 * the run's span itself (RunRootSpan), so its steps, model calls and tool calls go under the run,
 * and a run of several loops (a background child's report, a stop hook's "go on") stays one span.
 * Each execute_tool span is handed to `onToolSpan`, for the child run its call may start.
 */
export class RunTracer implements Tracer {
  constructor(
    private readonly tracer: Tracer,
    private readonly runSpan: () => Span | undefined,
    private readonly onToolSpan: (toolCallId: string, context: Context) => void,
  ) {}

  startSpan(name: string, options?: SpanOptions, context?: Context): Span {
    // The SDK gives every span but its root the context of its parent.
    if (context === undefined) {
      const run = this.runSpan();
      if (!run) return this.tracer.startSpan(name, options);
      if (options?.attributes) run.setAttributes(options.attributes);
      return new RunRootSpan(run);
    }
    const span = this.tracer.startSpan(name, options, context);
    const attributes = options?.attributes;
    const callId = attributes?.['gen_ai.tool.call.id'];
    if (attributes?.['gen_ai.operation.name'] === 'execute_tool' && typeof callId === 'string')
      this.onToolSpan(callId, trace.setSpan(context, span));
    return span;
  }

  // The SDK's integration never starts an active span; one that did would get an ordinary one.
  get startActiveSpan(): Tracer['startActiveSpan'] {
    return this.tracer.startActiveSpan.bind(this.tracer);
  }
}

/**
 * The run's span, as the SDK's root span of one model loop: what the SDK records on it (the model,
 * the provider, the loop's tokens, and content when it is recorded) lands on the run's span; the
 * run's end, not the loop's, ends it, and sets its final tokens and status.
 */
class RunRootSpan implements Span {
  constructor(private readonly run: Span) {}

  spanContext() {
    return this.run.spanContext();
  }
  setAttribute(...args: Parameters<Span['setAttribute']>): this {
    this.run.setAttribute(...args);
    return this;
  }
  setAttributes(...args: Parameters<Span['setAttributes']>): this {
    this.run.setAttributes(...args);
    return this;
  }
  addEvent(...args: Parameters<Span['addEvent']>): this {
    this.run.addEvent(...args);
    return this;
  }
  addLink(...args: Parameters<Span['addLink']>): this {
    this.run.addLink(...args);
    return this;
  }
  addLinks(...args: Parameters<Span['addLinks']>): this {
    this.run.addLinks(...args);
    return this;
  }
  setStatus(...args: Parameters<Span['setStatus']>): this {
    this.run.setStatus(...args);
    return this;
  }
  /** The run's span keeps its name (`invoke_agent <agent>`, not the model's). */
  updateName(): this {
    return this;
  }
  /** The loop ended, not the run. */
  end(): void {}
  isRecording(): boolean {
    return this.run.isRecording();
  }
  recordException(...args: Parameters<Span['recordException']>): void {
    this.run.recordException(...args);
  }
}
