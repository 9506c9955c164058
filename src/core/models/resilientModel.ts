import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4StreamPart, LanguageModelV4StreamResult } from '@ai-sdk/provider';
import { systemDelay, type Delay } from '../ports';
import { classifyError, type CallTarget } from './classifyError';
import { compactPrompt, type CompactionResult } from './compactPrompt';
import { DEFAULT_RETRY_POLICY, retryDelay, type RetryPolicy } from './retryPolicy';
import { tapOf } from './streamTap';

/** A retry about to wait: what the run tree shows while it happens. */
export interface RetryNotice {
  /** 1 for the first retry. */
  attempt: number;
  maxRetries: number;
  delayMs: number;
  /** Why the call failed, in the provider's words (never the request, never a key). */
  error: string;
}

export interface ResilienceOptions {
  /** The spec the model came from, for messages that say what to fix. */
  spec: string;
  policy?: RetryPolicy;
  onRetry?(notice: RetryNotice): void;
  onCompact?(result: CompactionResult): void;
  random?: () => number;
  /** How a retry waits (default: a real timer that ends on abort). */
  delay?: Delay;
}

/** A model call that failed for good; the message says what happened and what to do. */
export class ModelCallError extends Error {
  override readonly name = 'ModelCallError';
}

/**
 * Wraps a model so its calls survive what they can: transient failures (429, 5xx, dropped
 * connections, timeouts) are retried with backoff, and a prompt the provider finds too long is
 * compacted once and sent again. A failure counts as long as no content has arrived: the stream
 * is read up to its first real part before the call is considered made, so a retry never repeats
 * text the run has already shown. Permanent failures end at once with a message saying what to fix.
 *
 * One wrapper serves one run. After a compaction, every later call of the run is compacted the same
 * way (the SDK keeps sending its full history); another overflow after that ends the run.
 */
export function withResilience(model: LanguageModelV4, options: ResilienceOptions): LanguageModelV4 {
  const policy = options.policy ?? DEFAULT_RETRY_POLICY;
  const delay = options.delay ?? systemDelay;
  const target: CallTarget = { spec: options.spec, modelId: model.modelId };
  let compacted = false;

  const doStream = async (call: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> => {
    const signal = call.abortSignal;
    let prompt = compacted ? compactPrompt(call.prompt).prompt : call.prompt;
    for (let retry = 0; ; ) {
      let error: unknown;
      try {
        return await firstPart(await model.doStream({ ...call, prompt }));
      } catch (e) {
        error = e;
      }
      if (signal?.aborted) throw error;
      const kind = classifyError(error, target);
      switch (kind.kind) {
        case 'overflow': {
          const result = compacted ? undefined : compactPrompt(prompt);
          if (!result || result.shortened + result.dropped === 0) {
            throw new ModelCallError(
              `The conversation is too long for "${options.spec}"${compacted ? ' even after shortening older tool outputs' : ''} (${kind.summary}). ` +
                'Start a new thread, ask for a smaller piece of work, or choose a model with a larger context window.',
              { cause: error },
            );
          }
          compacted = true;
          prompt = result.prompt;
          options.onCompact?.(result);
          continue;
        }
        case 'permanent':
          throw new ModelCallError(kind.message, { cause: error });
        case 'other':
          throw error;
        case 'transient': {
          if (retry >= policy.maxRetries) {
            throw new ModelCallError(
              `"${options.spec}" still failed after ${policy.maxRetries} retries (${kind.summary}). ` +
                'The provider may be overloaded or unreachable: try again later, or check that the server is running.',
              { cause: error },
            );
          }
          retry++;
          const delayMs = retryDelay(policy, retry, kind.retryAfterMs, options.random);
          if (delayMs === undefined) {
            const seconds = Math.ceil((kind.retryAfterMs ?? 0) / 1000);
            throw new ModelCallError(`"${options.spec}" asks to wait ${seconds} s before trying again (${kind.summary}). Try again later.`, { cause: error });
          }
          options.onRetry?.({ attempt: retry, maxRetries: policy.maxRetries, delayMs, error: kind.summary });
          await delay(delayMs, signal);
        }
      }
    }
  };

  return {
    specificationVersion: 'v4',
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: model.supportedUrls,
    doStream,
    // Only streaming is retried: the engine never calls doGenerate, and a tool that might would
    // rather get the provider's own behaviour than half of ours.
    doGenerate: (call) => model.doGenerate(call),
  };
}

/** Parts that carry nothing the user sees; an error among them still counts as a failed call. */
const PREAMBLE = new Set<LanguageModelV4StreamPart['type']>(['stream-start', 'response-metadata', 'ping', 'raw']);

/**
 * Reads the stream up to its first part with content. An `error` part before that (a server that
 * answers 200 and then fails) is thrown, so the caller can retry; the parts read are replayed. A
 * stream whose head a wrapper below already read (streamTap.ts) is passed on as it is.
 */
async function firstPart(result: LanguageModelV4StreamResult): Promise<LanguageModelV4StreamResult> {
  const tap = tapOf(result.stream);
  if (tap) {
    if (!tap.head.error) return result;
    void result.stream.cancel().catch(() => undefined);
    throw tap.head.error.value;
  }
  const reader = result.stream.getReader();
  const head: LanguageModelV4StreamPart[] = [];
  let done = false;
  for (;;) {
    const next = await reader.read();
    if (next.done) {
      done = true;
      break;
    }
    if (next.value.type === 'error') {
      // The call already failed with this error; a cancel that fails too has nothing to add.
      void reader.cancel().catch(() => undefined);
      throw next.value.error;
    }
    head.push(next.value);
    if (!PREAMBLE.has(next.value.type)) break;
  }
  const stream = new ReadableStream<LanguageModelV4StreamPart>({
    start(controller) {
      for (const part of head) controller.enqueue(part);
      if (done) controller.close();
    },
    async pull(controller) {
      const next = await reader.read();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return { ...result, stream };
}
