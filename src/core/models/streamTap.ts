import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';

/**
 * What a wrapper that already reads a model call's stream part by part (the idle watch) offers the
 * wrappers around it, so they need no stream layer of their own: each layer is a ReadableStream
 * whose every part costs a pull, a read and their promises (about 0.5 µs a part, 27 µs a stream),
 * and a delegation's calls passed through three of them.
 */
export interface StreamTap {
  /**
   * The stream's head (the parts before the first with content) has been read: `error` is set when
   * the head ended with an error part (a server that answered and then failed), which the retry
   * wrapper treats as a failed call, as it would on reading it itself.
   */
  readonly head: { error?: { value: unknown } };
  /** Calls `listener` once when the stream ends, fails or is cancelled; at once if it already has. */
  onEnd(listener: () => void): void;
}

const taps = new WeakMap<ReadableStream<LanguageModelV4StreamPart>, StreamTap>();

/** The tap of a stream one of our wrappers reads, or undefined for any other (the caller reads it itself). */
export function tapOf(stream: ReadableStream<LanguageModelV4StreamPart>): StreamTap | undefined {
  return taps.get(stream);
}

/** The end listeners of one tapped stream: `end()` calls each once, and any added later at once. */
export class StreamEnd {
  private listeners: (() => void)[] | undefined = [];

  add(listener: () => void): void {
    if (this.listeners) this.listeners.push(listener);
    else listener();
  }

  end(): void {
    const listeners = this.listeners;
    this.listeners = undefined;
    for (const listener of listeners ?? []) listener();
  }
}

/** Registers `stream` as read by its maker, with what it read of the head and its end. */
export function tapStream(
  stream: ReadableStream<LanguageModelV4StreamPart>,
  head: StreamTap['head'],
  end: StreamEnd,
): ReadableStream<LanguageModelV4StreamPart> {
  taps.set(stream, { head, onEnd: (listener) => end.add(listener) });
  return stream;
}
