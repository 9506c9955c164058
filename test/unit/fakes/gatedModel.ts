import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';

/** One model call waiting at its gate: the test decides when (and with what) it answers. */
export interface GatedCall {
  /** The last user message of the prompt: which turn this call belongs to. */
  prompt: string;
  /** Streams `text` as the answer and finishes the call. */
  answer(text: string): void;
}

/**
 * A model whose every call waits until the test answers it (or the run is aborted), so a test can
 * hold a run at work for exactly as long as it needs, with no sleeps: "while the thread works".
 */
export function gatedModel() {
  const calls: GatedCall[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const model = new MockLanguageModelV4({
    doStream: async (options: LanguageModelV4CallOptions) => {
      const signal = options.abortSignal;
      const text = await new Promise<string>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
        calls.push({ prompt: lastUserText(options), answer: resolve });
        for (const w of waiters.splice(0))
          if (calls.length >= w.count) w.resolve();
          else waiters.push(w);
      });
      const parts: LanguageModelV4StreamPart[] = [
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: text },
        { type: 'text-end', id: 't' },
        {
          type: 'finish',
          finishReason: { unified: 'stop', raw: 'stop' },
          usage: { inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 2, text: 2, reasoning: 0 } },
        },
      ];
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
  return {
    model,
    calls,
    /** Resolves once at least `count` calls have reached their gate. */
    reached(count: number): Promise<void> {
      if (calls.length >= count) return Promise.resolve();
      return new Promise<void>((resolve) => waiters.push({ count, resolve }));
    },
  };
}

function lastUserText(options: LanguageModelV4CallOptions): string {
  const users = options.prompt.filter((m) => m.role === 'user');
  const last = users.at(-1);
  if (!last || last.role !== 'user') return '';
  return last.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('');
}
