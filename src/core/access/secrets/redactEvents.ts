import type { RunEventBody } from '../../runEvents';
import type { Logger } from '../../ports';
import type { Redactor } from './redactor';

/**
 * The redaction of one run's events, on their way to the store and the listeners. Streamed text
 * is redacted across its pieces: a secret split over two `text.delta`s is caught, because a tail
 * that could begin a secret is held back until the next piece (or the run's next other event,
 * before which it is released) shows what it is.
 */
export class StreamRedaction {
  private held = '';

  constructor(private readonly redactor: Redactor) {}

  /** Hands `write` the redacted event, after any text held back; returns what the last write returned. */
  pass<T>(body: RunEventBody, write: (clean: RunEventBody) => T): T | undefined {
    if (this.redactor.size === 0) return write(body);
    if (body.kind === 'text.delta') {
      const text = this.redactor.redactText(this.held + body.text);
      const keep = this.redactor.pendingSuffix(text);
      this.held = text.slice(text.length - keep);
      const now = text.slice(0, text.length - keep);
      return now ? write({ ...body, text: now }) : undefined;
    }
    if (this.held) {
      write({ kind: 'text.delta', text: this.held });
      this.held = '';
    }
    return write(this.redactor.redactValue(body));
  }
}

/** A logger whose lines are redacted. */
export function redactingLogger(logger: Logger, redactor: Redactor): Logger {
  return {
    debug: (m) => logger.debug(redactor.redactText(m)),
    info: (m) => logger.info(redactor.redactText(m)),
    warn: (m) => logger.warn(redactor.redactText(m)),
    error: (m) => logger.error(redactor.redactText(m)),
  };
}
