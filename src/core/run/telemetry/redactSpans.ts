import type { AttributeValue, Attributes } from '@opentelemetry/api';
import type { Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Redactor } from '../../access/secrets/redactor';

/**
 * The redactor on every span as it ends, before any exporter sees it: its attributes (the SDK's
 * too: prompts, arguments, results and errors when content is recorded), its events' attributes
 * (an exception's message and stack), its status message and its name. Secrets never leave.
 */
export class RedactingSpanProcessor implements SpanProcessor {
  constructor(private readonly redactor: Redactor) {}

  onEnding(span: Span): void {
    const redactor = this.redactor;
    for (const [key, value] of Object.entries(span.attributes)) {
      const clean = redactValue(redactor, value);
      if (clean !== value && clean !== undefined) span.setAttribute(key, clean);
    }
    for (const event of span.events) if (event.attributes) event.attributes = redactAttributes(redactor, event.attributes);
    const message = span.status.message;
    if (message) span.setStatus({ code: span.status.code, message: redactor.redactText(message) });
    span.updateName(redactor.redactText(span.name));
  }

  onStart(): void {}
  onEnd(): void {}
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

function redactAttributes(redactor: Redactor, attributes: Attributes): Attributes {
  return Object.fromEntries(Object.entries(attributes).map(([key, value]) => [key, redactValue(redactor, value)]));
}

function redactValue(redactor: Redactor, value: AttributeValue | undefined): AttributeValue | undefined {
  if (typeof value === 'string') return redactor.redactText(value);
  if (Array.isArray(value) && value.some((v) => typeof v === 'string'))
    return value.map((v: unknown) => (typeof v === 'string' ? redactor.redactText(v) : v)) as AttributeValue;
  return value;
}
