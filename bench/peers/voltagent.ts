import { Agent } from '@voltagent/core';
import { agentNames, childModel, supervisorModel, TASK } from '../mockModels';
import { asV3 } from './mockModelV3';

// VoltAgent 2.x: a supervisor with N subAgents; its own `delegate_task` tool ({task, targetAgents})
// hands the task to all of them in parallel, each a streamText of its own, on ai@6. Defaults
// everywhere else (its in-memory conversation memory, its observability), as a user would start.
// Must be imported with NODE_ENV=production: otherwise VoltAgent fetches a model list on import.

export function voltAgentScenario(n: number, latencyMs: number): () => Promise<string> {
  const child = asV3(childModel(latencyMs));
  const supervisorModelV3 = asV3(supervisorModel('delegate_task', { task: TASK, targetAgents: agentNames(n) }));
  const subAgents = agentNames(n).map(
    (name) => new Agent({ name, purpose: `Subagent ${name}.`, instructions: `You are ${name}.`, model: child }),
  );
  const supervisor = new Agent({ name: 'supervisor', instructions: 'Delegate to your subagents.', model: supervisorModelV3, subAgents });
  return async () => {
    const run = await supervisor.streamText('Delegate the survey.');
    let answer = '';
    for await (const part of run.fullStream) if (part.type === 'text-delta') answer += part.text;
    return answer;
  };
}
