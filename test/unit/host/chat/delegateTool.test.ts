import { describe, expect, it } from 'vitest';
import { PromptQueue } from '../../../../src/core/engine/requests/promptQueue';
import { invokeDelegation, prepareDelegation, type DelegateToolDeps } from '../../../../src/host/chat/delegateTool';
import { gatedModel } from '../../fakes/gatedModel';
import { agent, makeEngine } from '../../core/engineHarness';
import { cancellation } from './chatFakes';

// subagents_delegate for Copilot's agent mode: prepareInvocation and invoke over a real engine.

function setup(options: Parameters<typeof makeEngine>[1] = {}) {
  const h = makeEngine(
    { agents: { reviewer: [{ text: 'looks fine' }] } },
    { agents: { reviewer: agent('reviews code', { displayName: 'Code Reviewer' }) }, ...options },
  );
  const deps: DelegateToolDeps = {
    engine: h.engine,
    queue: new PromptQueue(h.engine),
    profiles: () => ({ profiles: h.profiles, problems: [] }),
  };
  return { h, deps };
}

describe('subagents_delegate', () => {
  it('prepareInvocation names the agent and the task; a bad input or an unknown agent is an error that says what to send', () => {
    const { deps } = setup();
    expect(prepareDelegation(deps, { agent: 'Code Reviewer', task: 'review src/a.ts' })).toEqual({
      invocationMessage: 'Delegating to the subagent "reviewer"…',
      confirmationMessages: { title: 'Run the subagent "reviewer"?', message: expect.stringContaining('review src/a.ts') },
    });
    expect(() => prepareDelegation(deps, { agent: 'reviewer' })).toThrow(/needs \{agent, task, context\?\}.*task/);
    expect(() => prepareDelegation(deps, { agent: 'nobody', task: 'x' })).toThrow(/no enabled Subagents agent "nobody". Agents: reviewer/);
  });

  it('runs the agent on a new thread titled by the task, and returns its output with its status', async () => {
    const { h, deps } = setup();
    const text = await invokeDelegation(
      deps,
      { agent: 'reviewer', task: 'review src/a.ts', context: 'it was changed today' },
      cancellation().token,
    );
    const [run] = h.runs();
    expect([run!.agent, run!.depth, run!.state]).toEqual(['reviewer', 0, 'ok']);
    expect(run!.task).toBe('review src/a.ts\n\nContext from the caller:\nit was changed today');
    expect(text).toBe(`Subagent "reviewer" finished with status ok. Its thread is ${run!.threadId} in the Subagents panel.\n\nlooks fine`);
    // The panel's thread list shows the request as the thread's title.
    expect((await h.store.list()).map((t) => [t.id, t.title])).toEqual([[run!.threadId, 'review src/a.ts']]);
  });

  it("Copilot's cancel stops the run, and the result says so", async () => {
    const gated = gatedModel();
    const { h, deps } = setup({ model: () => gated.model });
    const token = cancellation();
    const call = invokeDelegation(deps, { agent: 'reviewer', task: 'slow' }, token.token);
    await gated.reached(1);
    token.cancel();
    expect(await call).toMatch(/^Subagent "reviewer" finished with status cancelled/);
    expect(h.runs()[0]!.state).toBe('cancelled');
  });
});
