import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { heldModel, type WorkSlot } from '../../../../src/core/run/agent/workSlot';
import { idleTimeoutModel } from '../../../../src/core/run/liveness/idleTimeoutModel';
import { StallWatch } from '../../../../src/core/run/liveness/stallWatch';
import { systemClock, systemSchedule } from '../../../../src/core/ports';

// The work slot of a call is given back when its stream ends, fails or is cancelled. Over the idle
// watch's stream it learns that from the watch's tap, with no stream of its own: these are the
// three ways a stream ends, each of which must let the slot go.

/** A slot that counts how many holds are out. */
function countingSlot() {
  const slot = { held: 0 } as WorkSlot & { held: number };
  slot.hold = async () => {
    slot.held++;
    let released = false;
    return () => {
      if (!released) slot.held--;
      released = true;
    };
  };
  return slot;
}

/** A provider stream: its first parts at once; the rest when `more` is called, or a failure. */
function provider() {
  let controller!: ReadableStreamDefaultController<LanguageModelV4StreamPart>;
  const stream = new ReadableStream<LanguageModelV4StreamPart>({
    start(c) {
      controller = c;
      c.enqueue({ type: 'stream-start', warnings: [] });
      c.enqueue({ type: 'text-start', id: 't' });
    },
  });
  const model = new MockLanguageModelV4({ doStream: async () => ({ stream }) });
  return {
    model,
    end: () => {
      controller.enqueue({ type: 'text-end', id: 't' });
      controller.close();
    },
    fail: (error: Error) => controller.error(error),
  };
}

function stack(inner: MockLanguageModelV4, slot: WorkSlot) {
  const watch = new StallWatch(60_000, systemClock, systemSchedule, () => {});
  const idle = idleTimeoutModel(inner, { idleTimeoutMs: 60_000, clock: systemClock, schedule: systemSchedule, watch, onRetry: () => {} });
  return { model: heldModel(idle, slot), watch };
}

async function readAll(stream: ReadableStream<LanguageModelV4StreamPart>): Promise<string[]> {
  const types: string[] = [];
  for await (const part of stream) types.push(part.type);
  return types;
}

describe('the work slot over the idle watch tap', () => {
  it('is held while the stream is open and given back when it ends', async () => {
    const slot = countingSlot();
    const p = provider();
    const { model, watch } = stack(p.model, slot);
    const { stream } = await model.doStream({ prompt: [] });
    expect(slot.held).toBe(1);
    const reading = readAll(stream);
    p.end();
    expect(await reading).toEqual(['stream-start', 'text-start', 'text-end']);
    expect(slot.held).toBe(0);
    watch.stop();
  });

  it('is given back when the stream fails midway', async () => {
    const slot = countingSlot();
    const p = provider();
    const { model, watch } = stack(p.model, slot);
    const { stream } = await model.doStream({ prompt: [] });
    const reading = readAll(stream);
    p.fail(new Error('connection reset'));
    await expect(reading).rejects.toThrow('connection reset');
    expect(slot.held).toBe(0);
    watch.stop();
  });

  it('is given back when the reader cancels the stream', async () => {
    const slot = countingSlot();
    const p = provider();
    const { model, watch } = stack(p.model, slot);
    const { stream } = await model.doStream({ prompt: [] });
    const reader = stream.getReader();
    expect((await reader.read()).value?.type).toBe('stream-start');
    expect(slot.held).toBe(1);
    await reader.cancel('the run was stopped');
    expect(slot.held).toBe(0);
    watch.stop();
  });
});
