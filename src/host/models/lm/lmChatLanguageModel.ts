import { APICallError } from '@ai-sdk/provider';
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import type { LmChatModel, LmFactory, LmMessage } from './lmShapes';
import { toLmRequest } from './toLmRequest';

/**
 * An editor language model (vscode.lm, e.g. Copilot) as an AI SDK model: text streams as deltas,
 * tool calls go both ways, the call's AbortSignal cancels the request's CancellationToken, and
 * usage is counted with the model's own tokenizer. vscode.lm errors become APICallErrors with the
 * HTTP status they amount to, so retries and messages work as for any provider.
 */
export class LmChatLanguageModel implements LanguageModelV4 {
  readonly specificationVersion = 'v4';
  readonly provider = 'vscode-lm';
  readonly modelId: string;
  readonly supportedUrls = {};

  /**
   * @param select finds the model when a call needs it (the editor's models come and go: a sign-in,
   * an extension installed); undefined when there is none.
   */
  constructor(
    private readonly selector: { vendor: string; family: string },
    private readonly select: () => PromiseLike<LmChatModel | undefined>,
    private readonly lm: LmFactory,
  ) {
    this.modelId = `${selector.vendor}/${selector.family}`;
  }

  async doStream(call: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    const signal = call.abortSignal;
    signal?.throwIfAborted();
    const model = await this.select();
    if (!model) {
      throw this.error(
        404,
        `No language model "${this.modelId}" is available in this editor. Sign in to the extension that provides it (such as GitHub Copilot), or choose another model.`,
      );
    }
    const { messages, options } = toLmRequest(call, this.lm);
    const inputTokens = await countInput(model, messages);
    if (inputTokens !== undefined && inputTokens > model.maxInputTokens) {
      // Said the way providers say it, so the caller compacts the prompt and tries again.
      throw this.error(400, `prompt is too long: ${inputTokens} tokens > ${model.maxInputTokens} maximum for ${model.id}`);
    }
    const source = this.lm.cancellation();
    const onAbort = () => source.cancel();
    signal?.addEventListener('abort', onAbort, { once: true });
    const cleanup = () => {
      signal?.removeEventListener('abort', onAbort);
      source.dispose();
    };
    let iterator: AsyncIterator<unknown>;
    try {
      const response = await model.sendRequest(messages, options, source.token);
      iterator = response.stream[Symbol.asyncIterator]();
    } catch (error) {
      cleanup();
      throw signal?.aborted ? signal.reason : this.translate(error);
    }

    const lm = this.lm;
    let textOpen = false;
    let written = '';
    let toolCalls = 0;
    const stream = new ReadableStream<LanguageModelV4StreamPart>({
      start: (controller) => controller.enqueue({ type: 'stream-start', warnings: [] }),
      pull: async (controller) => {
        try {
          for (;;) {
            const next = await iterator.next();
            if (signal?.aborted) throw signal.reason;
            if (next.done) {
              if (textOpen) controller.enqueue({ type: 'text-end', id: 'text' });
              const finishReason: LanguageModelV4FinishReason = toolCalls
                ? { unified: 'tool-calls', raw: 'tool_calls' }
                : { unified: 'stop', raw: 'stop' };
              controller.enqueue({ type: 'finish', finishReason, usage: usageOf(inputTokens, await countOutput(model, written)) });
              controller.close();
              cleanup();
              return;
            }
            const part = lm.readPart(next.value);
            if (part?.type === 'text' && part.value) {
              if (!textOpen) controller.enqueue({ type: 'text-start', id: 'text' });
              textOpen = true;
              written += part.value;
              controller.enqueue({ type: 'text-delta', id: 'text', delta: part.value });
              return;
            }
            if (part?.type === 'tool-call') {
              if (textOpen) controller.enqueue({ type: 'text-end', id: 'text' });
              textOpen = false;
              toolCalls++;
              const input = JSON.stringify(part.input);
              written += input;
              // vscode.lm hands a call over whole: one tool-call part, no input deltas.
              controller.enqueue({ type: 'tool-call', toolCallId: part.callId, toolName: part.name, input });
              return;
            }
          }
        } catch (error) {
          cleanup();
          controller.error(signal?.aborted ? signal.reason : this.translate(error));
        }
      },
      cancel: () => {
        source.cancel();
        cleanup();
      },
    });
    return { stream, request: { body: { model: model.id, messages: messages.length } } };
  }

  async doGenerate(call: LanguageModelV4CallOptions) {
    const { stream } = await this.doStream(call);
    const content: LanguageModelV4Content[] = [];
    let finish: Extract<LanguageModelV4StreamPart, { type: 'finish' }> | undefined;
    let text = '';
    for await (const part of stream) {
      if (part.type === 'text-delta') text += part.delta;
      else if (part.type === 'tool-call') content.push(part);
      else if (part.type === 'finish') finish = part;
    }
    if (text) content.unshift({ type: 'text', text });
    return {
      content,
      finishReason: finish?.finishReason ?? { unified: 'other' as const, raw: undefined },
      usage: finish?.usage ?? usageOf(undefined, undefined),
      warnings: [],
    };
  }

  /** vscode.LanguageModelError codes as HTTP statuses; anything else passes through unchanged. */
  private translate(error: unknown): unknown {
    if (!(error instanceof Error)) return error;
    const code = 'code' in error && typeof error.code === 'string' ? error.code : '';
    if (code === 'NoPermissions') {
      return this.error(
        403,
        `Subagents may not use "${this.modelId}" yet (${error.message}). Allow it when the editor asks, or under Accounts > Manage Language Model Access.`,
        error,
      );
    }
    if (code === 'NotFound') return this.error(404, error.message || `The model "${this.modelId}" is gone.`, error);
    // Blocked is what the editor says when the quota or rate limit of the model is reached.
    if (code === 'Blocked') return this.error(429, error.message || 'The editor blocked the request for now.', error);
    if (/too long|token limit|context/i.test(error.message)) return this.error(400, error.message, error);
    return error;
  }

  private error(statusCode: number, message: string, cause?: unknown): APICallError {
    return new APICallError({
      message,
      url: `vscode-lm:${this.modelId}`,
      requestBodyValues: {},
      statusCode,
      isRetryable: statusCode === 429,
      cause,
    });
  }
}

/** The prompt's size in the model's tokens, or undefined when the model cannot count. */
async function countInput(model: LmChatModel, messages: LmMessage[]): Promise<number | undefined> {
  try {
    const counts = await Promise.all(messages.map((m) => model.countTokens(m)));
    return counts.reduce((a, b) => a + b, 0);
  } catch {
    return undefined;
  }
}

async function countOutput(model: LmChatModel, text: string): Promise<number | undefined> {
  if (!text) return 0;
  try {
    return await model.countTokens(text);
  } catch {
    return undefined;
  }
}

function usageOf(input: number | undefined, output: number | undefined): LanguageModelV4Usage {
  return {
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: output, text: output, reasoning: undefined },
  };
}
