// Traces over OTLP/HTTP: a lazily loaded bundle of its own (telemetry.js, scripts/bundles.mjs) with
// the ai SDK's OpenTelemetry integration, the OpenTelemetry tracer and the official OTLP/HTTP
// exporter. Nothing loads it while subagents.telemetry.otlpEndpoint is empty; only loadTracing.ts
// imports this file. No global is set: the tracer provider is ours alone, not the process's (the
// editor's other extensions keep theirs).
import { OpenTelemetry } from '@ai-sdk/otel';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { errorText } from '../../../shared/errorText';
import type { Logger } from '../../ports';
import { RedactingSpanProcessor } from './redactSpans';
import { RunSpans } from './runSpans';
import type { RunTracing, TracingOptions } from './runTracing';

export function startTracing(options: TracingOptions): RunTracing {
  const { recordContent, logger } = options;
  const exporter = new SaidFailures(new OTLPTraceExporter({ url: options.url }), options.url, logger);
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'subagents' }),
    // The redactor first: a span is clean before the batch holds it.
    spanProcessors: [new RedactingSpanProcessor(options.redactor), new BatchSpanProcessor(exporter)],
  });
  const spans = new RunSpans(provider.getTracer('subagents'), recordContent);
  const settle = (what: string) => (error: unknown) => logger.warn(`Traces to ${options.url}: ${what} failed (${errorText(error)}).`);
  let broken = false;
  return {
    observe: (event) => {
      try {
        spans.observe(event);
      } catch (error) {
        // A bug of ours here must not stop the run whose event this is; it is said once.
        if (!broken) logger.error(`A run's trace could not be recorded (${errorText(error)}); its spans may be missing.`);
        broken = true;
      }
    },
    aiTelemetry: (runId, agent) => ({
      isEnabled: true,
      functionId: agent,
      recordInputs: recordContent,
      recordOutputs: recordContent,
      integrations: new OpenTelemetry({ tracer: spans.tracerFor(runId) }),
    }),
    flush: () => provider.forceFlush().catch(settle('sending')),
    shutdown: () => provider.shutdown().catch(settle('closing')),
  };
}

/** The exporter, saying in the log when a batch could not be sent (once until one is sent again): a trace is never lost in silence. */
class SaidFailures implements SpanExporter {
  private failing = false;

  constructor(
    private readonly exporter: SpanExporter,
    private readonly url: string,
    private readonly logger: Logger,
  ) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.exporter.export(spans, (result) => {
      if (result.code === ExportResultCode.SUCCESS) this.failing = false;
      else if (!this.failing) {
        this.failing = true;
        this.logger.warn(
          `Traces could not be sent to ${this.url} (${result.error ? errorText(result.error) : 'no reason given'}): is the collector running? ` +
            'Check subagents.telemetry.otlpEndpoint.',
        );
      }
      done(result);
    });
  }

  shutdown(): Promise<void> {
    return this.exporter.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.exporter.forceFlush?.() ?? Promise.resolve();
  }
}
