import { experimental_streamTextLowMemory, isStepCount, streamText, tool } from 'ai';
import { z } from 'zod';
import { agentNames, childModel, supervisorModel, TASK } from './mockModels';

// The floor: the delegation scenario written directly on ai@7, with nothing of ours. A supervisor
// calls a `delegate` tool whose execute runs N child streamText calls in parallel; every stream is
// consumed part by part, as any UI would. `singleConsumer` uses the SDK's single-consumer
// streamText (no replay, no tee), as our engine does: the floor of what ai@7 can do.

export function floorScenario(n: number, latencyMs: number, { singleConsumer = false } = {}): () => Promise<string> {
  const stream = singleConsumer ? experimental_streamTextLowMemory : streamText;
  const child = childModel(latencyMs);
  const supervisor = supervisorModel('delegate', { task: TASK, agents: agentNames(n) });
  const delegate = tool({
    description: 'Delegate a task to subagents and wait for their results.',
    inputSchema: z.object({ task: z.string(), agents: z.array(z.string()) }),
    execute: ({ task, agents }, { abortSignal }) =>
      Promise.all(
        agents.map(async (agent) => {
          const run = stream({ model: child, system: `You are ${agent}.`, prompt: task, abortSignal });
          let output = '';
          for await (const part of run.fullStream) if (part.type === 'text-delta') output += part.text;
          return { agent, status: 'ok', output };
        }),
      ),
  });
  return async () => {
    const run = stream({ model: supervisor, prompt: 'Delegate the survey.', tools: { delegate }, stopWhen: isStepCount(2) });
    let answer = '';
    for await (const part of run.fullStream) if (part.type === 'text-delta') answer += part.text;
    return answer;
  };
}
