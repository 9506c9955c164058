import { tmpdir } from 'node:os';
import { Engine } from '../src/core/engine/engine';
import { nodeWorkspace } from '../src/core/engine/nodeWorkspace';
import { DEFAULT_SETTINGS, SUPERVISOR, type EngineSettings } from '../src/core/config/settings/engineSettings';
import type { ModelResolver } from '../src/core/models/modelResolver';
import type { Profile, ProfileSet } from '../src/core/config/profiles/profile';
import type { ThreadStore } from '../src/core/storage/threads/threadStore';
import { agentNames, childModel, supervisorModel, TASK } from './mockModels';

// Our column: the same scenario through the engine (supervisor -> delegate_task -> N child runs,
// every step a RunEvent written to the store), with a resolver that hands out the floor's models.

/**
 * `tails`, when given, gets the ms from the top run's end to `whenQuiet` (the store's writes after the
 * answer); `more` adds settings (the traces bench's endpoint); `engines` gets the engine made.
 */
export function engineScenario(
  n: number,
  latencyMs: number,
  store: ThreadStore,
  tails?: number[],
  more: Partial<EngineSettings> = {},
  engines?: Engine[],
): () => Promise<string> {
  const child = childModel(latencyMs);
  const supervisor = supervisorModel('delegate_task', { task: TASK, agents: agentNames(n) });
  const profiles: ProfileSet = {
    profiles: new Map(
      agentNames(n).map((name): [string, Profile] => [
        name,
        { name, description: `Subagent ${name}.`, instructions: `You are ${name}.`, source: 'bench' },
      ]),
    ),
    problems: [],
  };
  const resolver: ModelResolver = { resolve: (_spec, caller) => (caller.agent === SUPERVISOR ? supervisor : child) };
  // maxConcurrency = N: the scenario is N children at once (the default of 4 would queue some).
  const settings = { ...DEFAULT_SETTINGS, model: 'bench:mock', maxConcurrency: Math.max(n, DEFAULT_SETTINGS.maxConcurrency), ...more };
  const engine = new Engine({
    store,
    workspace: nodeWorkspace({ root: tmpdir() }),
    profiles: () => profiles,
    settings: () => settings,
    createModelResolver: () => resolver,
  });
  engines?.push(engine);
  return async () => {
    const { threadId, done } = await engine.send({ prompt: 'Delegate the survey.' });
    const finished = await done;
    const ended = performance.now();
    await engine.whenQuiet(threadId);
    tails?.push(performance.now() - ended);
    if (finished.status !== 'ok') throw new Error(`The engine's run ended ${finished.status}: ${finished.error ?? ''}`);
    return finished.output;
  };
}
