import type { LanguageModelV4, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { tapOf } from '../../models/streamTap';

/** Gives the slot back; calling it again does nothing. */
export type Release = () => void;

/**
 * A run's right to work under a shared limit (subagents.maxConcurrency). The run holds it while
 * one of its model calls streams or one of its own tool calls runs; holding it twice at once (a
 * tool call inside a streaming step, parallel tool calls) still counts once.
 */
export interface WorkSlot {
  /** Resolves once the run may work; rejects with the signal's reason if it aborts first. */
  hold(signal?: AbortSignal): Promise<Release>;
}

/** No limit: the top run of a request, which only the user waits for. */
export const FREE_SLOT: WorkSlot = { hold: async () => () => {} };

/** The model, each call holding the slot from the request until its stream ends, fails or is cancelled. */
export function heldModel(model: LanguageModelV4, slot: WorkSlot): LanguageModelV4 {
  if (slot === FREE_SLOT) return model;
  return {
    specificationVersion: 'v4',
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: model.supportedUrls,
    doGenerate: async (call) => {
      const release = await slot.hold(call.abortSignal);
      try {
        return await model.doGenerate(call);
      } finally {
        release();
      }
    },
    doStream: async (call) => {
      const release = untilAbort(await slot.hold(call.abortSignal), call.abortSignal);
      let result;
      try {
        result = await model.doStream(call);
      } catch (error) {
        release();
        throw error;
      }
      // A stream that one of our wrappers reads says when it ends; any other is read through here.
      const tap = tapOf(result.stream);
      if (!tap) return { ...result, stream: releasedAtEnd(result.stream, release) };
      tap.onEnd(release);
      return result;
    },
  };
}

/** The release, also called when the signal aborts: a stream abandoned on cancel still lets go. */
function untilAbort(release: Release, signal: AbortSignal | undefined): Release {
  if (!signal) return release;
  const done = () => {
    signal.removeEventListener('abort', done);
    release();
  };
  signal.addEventListener('abort', done, { once: true });
  return done;
}

function releasedAtEnd(stream: ReadableStream<LanguageModelV4StreamPart>, release: Release): ReadableStream<LanguageModelV4StreamPart> {
  const reader = stream.getReader();
  return new ReadableStream<LanguageModelV4StreamPart>({
    async pull(controller) {
      try {
        const next = await reader.read();
        if (next.done) {
          release();
          controller.close();
        } else controller.enqueue(next.value);
      } catch (error) {
        release();
        controller.error(error);
      }
    },
    cancel(reason) {
      release();
      return reader.cancel(reason);
    },
  });
}
