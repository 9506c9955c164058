import { describe, expect, it } from 'vitest';
import { agent, makeEngine, SCRIPT_PATH } from '../engineHarness';

describe('which model a subagent runs on', () => {
  it("inherits its parent's model when its profile names none, and uses its own otherwise", async () => {
    const h = makeEngine(
      {
        agents: {
          supervisor: [{ toolCalls: [{ tool: 'delegate_task', input: { task: 't', agents: ['heir', 'own'] } }] }, { text: 'done' }],
          heir: [{ text: 'h' }],
        },
      },
      { agents: { heir: agent('inherits'), own: agent('has its own', { model: 'nonsense-spec' }) } },
    );
    await (
      await h.engine.send({ prompt: 'go' })
    ).done;
    const runs = Object.fromEntries(h.runs().map((r) => [r.agent, r]));
    expect(runs.heir!.model).toBe(`scripted:${SCRIPT_PATH}`);
    expect(runs.heir!.state).toBe('ok');
    expect(runs.own!.model).toBe('nonsense-spec');
    expect(runs.own!.error).toMatch(/The model spec "nonsense-spec" has no provider prefix/);
  });
});
