import { stepCountIs, streamText, tool } from 'ai';
import { z } from 'zod';
import { agentNames, childModel, supervisorModel, TASK } from '../mockModels';
import { asV3 } from './mockModelV3';

// VoltAgent's floor: ../floor.ts line for line, on ai@6 (this folder resolves `ai` from
// bench/peers/node_modules) with the same mock models seen as LanguageModelV3.

export function floorAi6Scenario(n: number, latencyMs: number): () => Promise<string> {
  const child = asV3(childModel(latencyMs));
  const supervisor = asV3(supervisorModel('delegate', { task: TASK, agents: agentNames(n) }));
  const delegate = tool({
    description: 'Delegate a task to subagents and wait for their results.',
    inputSchema: z.object({ task: z.string(), agents: z.array(z.string()) }),
    execute: ({ task, agents }, { abortSignal }) =>
      Promise.all(
        agents.map(async (agent) => {
          const run = streamText({ model: child, system: `You are ${agent}.`, prompt: task, abortSignal });
          let output = '';
          for await (const part of run.fullStream) if (part.type === 'text-delta') output += part.text;
          return { agent, status: 'ok', output };
        }),
      ),
  });
  return async () => {
    const run = streamText({ model: supervisor, prompt: 'Delegate the survey.', tools: { delegate }, stopWhen: stepCountIs(2) });
    let answer = '';
    for await (const part of run.fullStream) if (part.type === 'text-delta') answer += part.text;
    return answer;
  };
}
