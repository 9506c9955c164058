import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4StreamPart, LanguageModelV4StreamResult } from '@ai-sdk/provider';
import type { RetryNotice } from '../../models/resilientModel';
import { StreamEnd, tapStream } from '../../models/streamTap';
import { wrapModel } from '../../models/wrapModel';
import type { Clock, Schedule } from '../../ports';
import { seconds, type StallWatch } from './stallWatch';

/** A model stream that stayed silent past subagents.modelIdleTimeoutMs. Not retried again by the retry wrapper. */
export class ModelIdleError extends Error {
  override readonly name = 'ModelIdleError';
}

export interface IdleOptions {
  idleTimeoutMs: number;
  clock: Clock;
  schedule: Schedule;
  /** Told when a call opens, and of every part it streams. */
  watch: StallWatch;
  /** Sees every part the calls stream, as they pass (the budget's usage meter reads the finish part). */
  onPart?(part: LanguageModelV4StreamPart): void;
  /** The one retry of a silent call, for the run tree. */
  onRetry(notice: RetryNotice): void;
}

/** Parts that say nothing yet: a call whose stream has sent only these may be tried again unseen. */
const PREAMBLE = new Set<LanguageModelV4StreamPart['type']>(['stream-start', 'response-metadata', 'ping', 'raw']);

/**
 * The run's model with an idle timeout: a call whose stream yields nothing for `idleTimeoutMs` is
 * aborted. Silent before any content (no text, no tool call), it is tried once more, as a passing
 * failure would be; silent again, or silent after content was shown (a retry would repeat it), the
 * call fails with a ModelIdleError that says how long it waited. Every part counts as a sign of life
 * for the run's stall watch. The stream is tapped (streamTap.ts): the wrappers around this one
 * (retries, the work slot) read its head and end from here instead of each adding a layer.
 */
export function idleTimeoutModel(model: LanguageModelV4, options: IdleOptions): LanguageModelV4 {
  const idleText = (midway: boolean) =>
    midway
      ? `The model stopped sending for ${seconds(options.idleTimeoutMs)} s in the middle of its answer (subagents.modelIdleTimeoutMs), so the call was aborted.`
      : `The model sent nothing for ${seconds(options.idleTimeoutMs)} s, twice (subagents.modelIdleTimeoutMs), so the call was given up. The provider may be overloaded or unreachable.`;
  return wrapModel(model, {
    doStream: async (call) => {
      const closeWatch = options.watch.callOpened();
      try {
        const first = await attempt(model, call, options, closeWatch);
        if (first) return first;
        options.onRetry({ attempt: 1, maxRetries: 1, delayMs: 0, error: `the model sent nothing for ${seconds(options.idleTimeoutMs)} s` });
        const second = await attempt(model, call, options, closeWatch);
        if (second) return second;
        throw new ModelIdleError(idleText(false));
      } catch (error) {
        closeWatch();
        throw error;
      }
    },
  });

  /**
   * One try. Resolves with the stream once it has shown content (or ended), or with undefined when
   * it stayed silent too long before that. Time counts only while someone waits for the next part;
   * a part only notes the time, and the one timer looks at it when it fires.
   */
  async function attempt(
    inner: LanguageModelV4,
    call: LanguageModelV4CallOptions,
    o: IdleOptions,
    onEnd: () => void,
  ): Promise<LanguageModelV4StreamResult | undefined> {
    const abort = new AbortController();
    const outer = call.abortSignal;
    let reader: ReadableStreamDefaultReader<LanguageModelV4StreamPart> | undefined;
    // A provider that ignores its signal still lets go of a read that is cancelled.
    const stopWith = (reason: unknown) => {
      abort.abort(reason);
      void reader?.cancel(reason).catch(() => undefined);
    };
    const follow = () => stopWith(outer?.reason);
    outer?.addEventListener('abort', follow, { once: true });
    let idle: ModelIdleError | undefined;
    let midway = false;
    let waitingSince: number | undefined = o.clock.now();
    const check = () => {
      const waited = waitingSince === undefined ? 0 : o.clock.now() - waitingSince;
      if (waited < o.idleTimeoutMs) {
        cancelTimer = o.schedule(o.idleTimeoutMs - waited, check);
        return;
      }
      idle = new ModelIdleError(idleText(midway));
      stopWith(idle);
    };
    let cancelTimer = o.schedule(o.idleTimeoutMs, check);
    const release = () => {
      cancelTimer();
      outer?.removeEventListener('abort', follow);
    };
    const read = async (from: ReadableStreamDefaultReader<LanguageModelV4StreamPart>) => {
      waitingSince = o.clock.now();
      try {
        const next = await from.read();
        if (idle) throw idle;
        if (abort.signal.aborted) throw abort.signal.reason;
        return next;
      } finally {
        waitingSince = undefined;
      }
    };
    const head: LanguageModelV4StreamPart[] = [];
    let result: LanguageModelV4StreamResult;
    let ended = false;
    try {
      result = await untilAborted(inner.doStream({ ...call, abortSignal: abort.signal }), abort.signal);
      reader = result.stream.getReader();
      for (;;) {
        const next = await read(reader);
        if (next.done) {
          ended = true;
          break;
        }
        o.watch.touch();
        o.onPart?.(next.value);
        head.push(next.value);
        if (!PREAMBLE.has(next.value.type)) break;
      }
    } catch (error) {
      release();
      if (idle && !outer?.aborted) return undefined;
      throw error;
    }
    midway = true;
    const source = reader;
    const end = new StreamEnd();
    const finish = () => {
      release();
      onEnd();
      end.end();
    };
    const last = head.at(-1);
    const headRead = last?.type === 'error' ? { error: { value: last.error } } : {};
    if (ended) finish();
    const stream = new ReadableStream<LanguageModelV4StreamPart>({
      start(controller) {
        for (const part of head) controller.enqueue(part);
        if (ended) controller.close();
      },
      // One `then` on the read, not async functions: this runs for every part of every call.
      pull(controller) {
        const fail = (error: unknown) => {
          finish();
          void source.cancel().catch(() => undefined);
          controller.error(error);
        };
        waitingSince = o.clock.now();
        return source.read().then(
          (next) => {
            waitingSince = undefined;
            try {
              if (idle) throw idle;
              if (abort.signal.aborted) throw abort.signal.reason;
              if (next.done) {
                finish();
                controller.close();
                return;
              }
              o.watch.touch();
              o.onPart?.(next.value);
              controller.enqueue(next.value);
            } catch (error) {
              fail(error);
            }
          },
          (error: unknown) => {
            waitingSince = undefined;
            fail(error);
          },
        );
      },
      cancel(reason) {
        finish();
        return source.cancel(reason);
      },
    });
    return { ...result, stream: tapStream(stream, headRead, end) };
  }
}

/** The promise, or the signal's reason once it aborts: a provider that ignores its signal cannot hold the run. */
function untilAborted<T>(promise: PromiseLike<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}
