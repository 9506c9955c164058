import { tmpdir } from 'node:os';
import type { LanguageModelV4, LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { OUR_TOOL_COUNTS } from '../../../bench/floor';
import { agentNames, childModel, supervisorModel, TASK } from '../../../bench/mockModels';
import { Engine } from '../../../src/core/engine/engine';
import { DEFAULT_SETTINGS, SUPERVISOR } from '../../../src/core/config/settings/engineSettings';
import { nodeWorkspace } from '../../../src/core/engine/nodeWorkspace';
import type { Profile } from '../../../src/core/config/profiles/profile';
import { MemoryThreadStore } from '../../../src/core/storage/threads/memoryThreadStore';
import type { RunEventOf } from '../../../src/shared/events';

// The peer bench's "tools as ours" floor gives each agent OUR_TOOL_COUNTS tools: the numbers must
// be what our engine really gives in the same scenario (the tools each model is shown, and the
// children's stand-ins hidden from it), or that floor no longer does the same work as ours.

/** The model, recording how many tools each call was given. */
function counting(model: LanguageModelV4, counts: number[]): LanguageModelV4 {
  return {
    ...model,
    doStream: (options: LanguageModelV4CallOptions) => (counts.push(options.tools?.length ?? 0), model.doStream(options)),
  };
}

describe("the peer bench's same-work floor", () => {
  it("gives each agent as many tools as our engine gives the SDK in the bench's scenario", async () => {
    const supervisorCalls: number[] = [];
    const childCalls: number[] = [];
    const supervisor = counting(supervisorModel('delegate_task', { task: TASK, agents: agentNames(3) }), supervisorCalls);
    const child = counting(childModel(0), childCalls);
    const profiles = new Map(
      agentNames(3).map((name): [string, Profile] => [
        name,
        { name, description: `Subagent ${name}.`, instructions: `You are ${name}.`, source: 'bench' },
      ]),
    );
    const configs: RunEventOf<'run.config'>[] = [];
    const engine = new Engine({
      store: new MemoryThreadStore(),
      workspace: nodeWorkspace({ root: tmpdir() }),
      profiles: () => ({ profiles, problems: [] }),
      settings: () => ({ ...DEFAULT_SETTINGS, model: 'bench:mock' }),
      createModelResolver: () => ({ resolve: (_spec, caller) => (caller.agent === SUPERVISOR ? supervisor : child) }),
    });
    engine.onEvent((event) => event.kind === 'run.config' && configs.push(event));
    const { done } = await engine.send({ prompt: 'Delegate the survey.' });
    expect(await done).toMatchObject({ status: 'ok' });
    expect(childCalls).toHaveLength(3);
    expect(new Set(supervisorCalls)).toEqual(new Set([OUR_TOOL_COUNTS.supervisor]));
    expect(new Set(childCalls)).toEqual(new Set([OUR_TOOL_COUNTS.child]));
    // The stand-ins: what the child filter took from the model's view (the SDK still holds them).
    const children = configs.filter((c) => c.tools.effective.length === OUR_TOOL_COUNTS.child);
    expect(children).toHaveLength(3);
    for (const c of children)
      expect(c.tools.removed.filter((r) => r.reason.startsWith('the child filter'))).toHaveLength(OUR_TOOL_COUNTS.childHidden);
  });
});
