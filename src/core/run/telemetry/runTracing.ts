import type { TelemetryOptions } from 'ai';
import type { RunEvent } from '../../../shared/events';
import type { Redactor } from '../../access/secrets/redactor';
import type { Logger } from '../../ports';

/**
 * How the runs are traced when `subagents.telemetry.otlpEndpoint` is set: made by otelTracing.ts,
 * a bundle of its own that nothing loads while the setting is empty (loadTracing.ts).
 */
export interface RunTracing {
  /** Every event the runs publish, redacted: run.started opens a run's span, run.finished closes it. */
  observe(event: RunEvent): void;
  /** The ai SDK's telemetry for one model loop of a run: its steps, model calls and tool calls go under the run's span. */
  aiTelemetry(runId: string, agent: string): TelemetryOptions;
  /** Sends the spans that have ended; resolves when they are sent or could not be (never rejects). */
  flush(): Promise<void>;
  /** Sends what is left and stops. */
  shutdown(): Promise<void>;
}

export interface TracingOptions {
  /** The collector's traces URL (a bare origin already has /v1/traces). */
  url: string;
  /** Prompts, outputs, tools' arguments and results in the spans (subagents.telemetry.recordContent). */
  recordContent: boolean;
  /** Every attribute, event and status message goes through it before it leaves. */
  redactor: Redactor;
  logger: Logger;
}

/** The URL spans are posted to: a bare origin gets OTLP/HTTP's standard path, as OTEL_EXPORTER_OTLP_ENDPOINT does. */
export function tracesUrl(endpoint: string): string {
  const url = new URL(endpoint);
  if (url.pathname === '/' && !url.search) url.pathname = '/v1/traces';
  return url.href;
}
