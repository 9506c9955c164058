import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
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
  /** The time, for the policy's cap on how long a call goes on failing (default: Date.now). */
  now?: () => number;
  /** What a failed attempt reported it used (the finish part after its error): tokens spent all the same. */
  onFailedUsage?(usage: LanguageModelV4Usage): void;
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

  const now = options.now ?? Date.now;
  const doStream = async (call: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> => {
    const signal = call.abortSignal;
    let prompt = compacted ? compactPrompt(call.prompt).prompt : call.prompt;
    const started = now();
    for (let retry = 0; ;) {
      let error: unknown;
      try {
        return await firstPart(await model.doStream({ ...call, prompt }), options.onFailedUsage);
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
            throw new ModelCallError(
              `"${options.spec}" asks to wait ${seconds} s before trying again (${kind.summary}). Try again later.`,
              { cause: error },
            );
          }
          const failingMs = now() - started;
          if (failingMs + delayMs > policy.maxTotalMs) {
            throw new ModelCallError(
              `"${options.spec}" kept failing for ${Math.round(failingMs / 1000)} s over ${retry} attempt(s) (${kind.summary}), so it was not tried again. ` +
                'The provider may be overloaded or unreachable: try again later, or check that the server is running.',
              { cause: error },
            );
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
async function firstPart(
  result: LanguageModelV4StreamResult,
  onFailedUsage: ResilienceOptions['onFailedUsage'],
): Promise<LanguageModelV4StreamResult> {
  const tap = tapOf(result.stream);
  if (tap) {
    if (!tap.head.error) return result;
    await usageAfterError(result.stream.getReader(), onFailedUsage);
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
      await usageAfterError(reader, onFailedUsage);
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

/** How long a failed call's stream may take to say what it used after its error. */
const USAGE_AFTER_ERROR_MS = 2000;

/**
 * Reads what a failed call's stream sends after its error, for the finish part: a provider reports
 * there what the attempt used (the prompt it read, at least), and tokens spent on a failed attempt
 * are spent. A stream that says nothing more within a moment is cancelled; the call has failed anyway.
 */
async function usageAfterError(
  reader: ReadableStreamDefaultReader<LanguageModelV4StreamPart>,
  onUsage: ResilienceOptions['onFailedUsage'],
): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const gaveUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, USAGE_AFTER_ERROR_MS)));
  const drain = async () => {
    for (;;) {
      const next = await reader.read();
      if (next.done) return;
      if (next.value.type === 'finish') return onUsage?.(next.value.usage);
    }
  };
  try {
    await Promise.race([drain(), gaveUp]);
  } catch {
    // The stream broke after its error: nothing more to learn from it.
  } finally {
    clearTimeout(timer);
    // The call already failed; a cancel that fails too has nothing to add.
    void reader.cancel().catch(() => undefined);
  }
}
