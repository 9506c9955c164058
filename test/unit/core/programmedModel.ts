import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';

export interface ProgramStep {
  text?: string;
  toolCalls?: { tool: string; input: unknown; id?: string }[];
  delayMs?: number;
  /** What the call reports it used (default 3 in, 2 out). */
  usage?: { inputTokens: number; outputTokens: number };
}

export interface ProgramContext {
  call: number;
  /** Everything the model was called with (system prompt, tools, ...). */
  options: LanguageModelV4CallOptions;
  prompt: LanguageModelV4CallOptions['prompt'];
  /** The output of the most recent tool result in the prompt (JSON value), if any. */
  lastToolOutput(): unknown;
  /** Every user message text in the prompt. */
  userTexts(): string[];
}

/**
 * A model whose every call is decided by a function of the prompt: for tests that must use what a
 * tool returned (random run ids) in the next call. Scripts cannot, being fixed in advance. The
 * function may wait (for another run to reach a point), which orders parallel runs without sleeps.
 */
export function programmedModel(program: (ctx: ProgramContext) => ProgramStep | Promise<ProgramStep>): LanguageModelV4 {
  let call = 0;
  return new MockLanguageModelV4({
    doStream: async (options) => {
      const prompt = options.prompt;
      const planned = program({
        call: call++,
        options,
        prompt,
        lastToolOutput: () => {
          for (let i = prompt.length - 1; i >= 0; i--) {
            const m = prompt[i]!;
            if (m.role !== 'tool') continue;
            const part = m.content.at(-1);
            if (part?.type === 'tool-result') return 'value' in part.output ? part.output.value : undefined;
          }
          return undefined;
        },
        userTexts: () =>
          prompt.filter((m) => m.role === 'user').flatMap((m) => m.content.flatMap((c) => (c.type === 'text' ? [c.text] : []))),
      });
      // A step the test holds back (a promise) waits for it, or for the run to be stopped.
      const step = await untilAborted(Promise.resolve(planned), options.abortSignal);
      if (step.delayMs) await new Promise((r) => setTimeout(r, step.delayMs));
      const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
      if (step.text)
        parts.push({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: step.text }, { type: 'text-end', id: 't' });
      (step.toolCalls ?? []).forEach((c, i) =>
        parts.push({ type: 'tool-call', toolCallId: c.id ?? `call_${call}_${i}`, toolName: c.tool, input: JSON.stringify(c.input) }),
      );
      parts.push({
        type: 'finish',
        finishReason: step.toolCalls?.length ? { unified: 'tool-calls', raw: 'tool_calls' } : { unified: 'stop', raw: 'stop' },
        usage: usageOf(step.usage ?? { inputTokens: 3, outputTokens: 2 }),
      });
      return {
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          start(controller) {
            for (const p of parts) controller.enqueue(p);
            controller.close();
          },
        }),
      };
    },
  });
}

function usageOf(u: { inputTokens: number; outputTokens: number }) {
  return {
    inputTokens: { total: u.inputTokens, noCache: u.inputTokens, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: u.outputTokens, text: u.outputTokens, reasoning: 0 },
  };
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
    promise.then(resolve, reject);
  });
}
