import type { LanguageModelV4, LanguageModelV4StreamPart } from '@ai-sdk/provider';

/**
 * Counts the runs that are working at once: a run works while one of its model calls streams or
 * one of its tool calls runs. Keyed by a name per run (the agent), so a run with a model call and
 * a tool call open together counts once, as the setting means.
 */
export class WorkProbe {
  private readonly open = new Map<string, number>();
  /** The most runs working at the same time. */
  max = 0;

  get working(): number {
    return this.open.size;
  }

  enter(run: string): void {
    this.open.set(run, (this.open.get(run) ?? 0) + 1);
    this.max = Math.max(this.max, this.open.size);
  }

  leave(run: string): void {
    const n = (this.open.get(run) ?? 0) - 1;
    if (n > 0) this.open.set(run, n);
    else this.open.delete(run);
  }

  /** The model, counted from the call until its stream ends (or fails, or is cancelled). */
  model(run: string, inner: LanguageModelV4): LanguageModelV4 {
    return {
      ...inner,
      specificationVersion: 'v4',
      provider: inner.provider,
      modelId: inner.modelId,
      supportedUrls: inner.supportedUrls,
      doGenerate: (call) => inner.doGenerate(call),
      doStream: async (call) => {
        this.enter(run);
        let result;
        try {
          result = await inner.doStream(call);
        } catch (error) {
          this.leave(run);
          throw error;
        }
        let left = false;
        const leave = () => {
          if (!left) this.leave(run);
          left = true;
        };
        const reader = result.stream.getReader();
        const stream = new ReadableStream<LanguageModelV4StreamPart>({
          async pull(controller) {
            try {
              const next = await reader.read();
              if (next.done) {
                leave();
                controller.close();
              } else controller.enqueue(next.value);
            } catch (error) {
              leave();
              controller.error(error);
            }
          },
          cancel(reason) {
            leave();
            return reader.cancel(reason);
          },
        });
        return { ...result, stream };
      },
    };
  }

  /** Runs `work` counted as `run`'s. */
  async around<T>(run: string, work: () => Promise<T>): Promise<T> {
    this.enter(run);
    try {
      return await work();
    } finally {
      this.leave(run);
    }
  }
}
