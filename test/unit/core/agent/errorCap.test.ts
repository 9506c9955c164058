import { describe, expect, it } from 'vitest';
import { MAX_ERROR_CHARS } from '../../../../src/shared/errorText';
import { nodeWorkspace } from '../../../../src/core/engine/nodeWorkspace';
import type { RunEventOf } from '../../../../src/shared/events';
import { makeEngine } from '../engineHarness';
import { programmedModel } from '../programmedModel';

// A provider's error page or a tool's runaway message must not fill events, threads and the
// model's context: error texts are capped at MAX_ERROR_CHARS, with a count of what was cut.

const HUGE = 'x'.repeat(50_000);
const capped = (text: string) => text.length <= MAX_ERROR_CHARS + 100 && /… \(\d+ more characters cut\)$/.test(text);

describe('error texts are capped', () => {
  it("a model error's text in run.finished", async () => {
    const h = makeEngine({ agents: { supervisor: [{ error: { status: 400, message: HUGE } }] } });
    const { done } = await h.engine.send({ prompt: 'go' });
    const finished = await done;
    expect(finished.status).toBe('error');
    expect(capped(finished.error ?? '')).toBe(true);
  });

  it("a tool's error, in its event and in what the model reads", async () => {
    let seenByModel: unknown;
    const workspace = {
      ...nodeWorkspace({ root: '/workspace' }),
      installExtension: async () => {
        throw new Error(HUGE);
      },
    };
    const h = makeEngine(
      { agents: {} },
      {
        workspace,
        settings: { approval: 'trust' },
        model: () =>
          programmedModel((ctx) => {
            if (ctx.call === 0) return { toolCalls: [{ tool: 'install_extension', input: { id: 'publisher.tool' } }] };
            seenByModel = ctx.lastToolOutput();
            return { text: 'done' };
          }),
      },
    );
    const { done } = await h.engine.send({ prompt: 'go' });
    expect((await done).status).toBe('ok');
    const event = h.events.find((e): e is RunEventOf<'tool.finished'> => e.kind === 'tool.finished')!;
    expect(capped((event.output as { error: string }).error)).toBe(true);
    expect(capped((seenByModel as { error: string }).error)).toBe(true);
  });
});
