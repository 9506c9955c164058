import { errorText } from '../../../shared/errorText';
import type { EngineSettings } from '../../config/settings/engineSettings';
import type { Redactor } from '../../access/secrets/redactor';
import type { Logger } from '../../ports';
import { tracesUrl, type RunTracing } from './runTracing';

/**
 * The engine's traces: none, and no tracing code loaded (otelTracing.ts is its own bundle), while
 * `subagents.telemetry.otlpEndpoint` is empty; one exporter per endpoint and recordContent set, made
 * by the first request that needs it. Every one made is closed (its spans sent) by close().
 */
export class EngineTraces {
  private readonly made = new Map<string, Promise<RunTracing | undefined>>();

  constructor(
    private readonly redactor: Redactor,
    private readonly logger: Logger,
  ) {}

  /** The tracing for a request with these settings; undefined when traces are off or could not start (said in the log). */
  forSettings(settings: Pick<EngineSettings, 'telemetry.otlpEndpoint' | 'telemetry.recordContent'>): Promise<RunTracing | undefined> {
    const endpoint = settings['telemetry.otlpEndpoint'];
    if (!endpoint) return Promise.resolve(undefined);
    const recordContent = settings['telemetry.recordContent'];
    const key = `${endpoint}\n${recordContent}`;
    let tracing = this.made.get(key);
    if (!tracing) {
      tracing = import('./otelTracing').then(
        ({ startTracing }) => startTracing({ url: tracesUrl(endpoint), recordContent, redactor: this.redactor, logger: this.logger }),
        (error: unknown) => {
          // The work goes on untraced: a trace is no reason to refuse a request.
          this.logger.error(`Traces are off for this request: the tracing code could not be loaded (${errorText(error)}).`);
          this.made.delete(key);
          return undefined;
        },
      );
      this.made.set(key, tracing);
    }
    return tracing;
  }

  /** Sends every span still waiting and stops the exporters (the CLI's exit, the window's close). */
  async close(): Promise<void> {
    const all = [...this.made.values()];
    this.made.clear();
    await Promise.all(all.map(async (t) => (await t)?.shutdown()));
  }
}
