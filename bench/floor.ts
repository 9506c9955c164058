import { experimental_streamTextLowMemory, isStepCount, jsonSchema, streamText, tool, type ToolSet } from 'ai';
import { z } from 'zod';
import { agentNames, childModel, supervisorModel, TASK } from './mockModels';

// The floor: the delegation scenario written directly on ai@7, with nothing of ours. A supervisor
// calls a `delegate` tool whose execute runs N child streamText calls in parallel; every stream is
// consumed part by part, as any UI would. `singleConsumer` uses the SDK's single-consumer
// streamText (no replay, no tee), as our engine does: the floor of what ai@7 can do.
// `toolsLikeOurs` also gives each agent's streamText as many tools as ours hold in this scenario
// (the supervisor its 15, each child its 9 and the 4 stand-ins hidden from its model:
// OUR_TOOL_COUNTS; here the model is shown them all), and the
// children a multi-step loop, as ours: the SDK then runs every streamed part through its tool
// stages, which a child without tools skips. Nothing calls them; they only weigh as ours do.

/**
 * The tools our engine gives the supervisor and each child in this scenario: those their models are
 * shown, and the children's stand-ins that the model is not shown but the SDK holds (to refuse a
 * forged call). test/unit/bench/floorTools.test.ts checks them against the engine.
 */
export const OUR_TOOL_COUNTS = { supervisor: 15, child: 9, childHidden: 4 };

/** `count` tools that are never called, each with a small JSON schema (ours are JSON schemas too, made once). */
function idleTools(count: number, prefix: string): ToolSet {
  const entries = Array.from({ length: count }, (_, i) => [
    `${prefix}${i}`,
    tool({
      description: `Stand-in tool ${i}.`,
      inputSchema: jsonSchema<{ path: string }>({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }),
      execute: async () => 'unused',
    }),
  ]);
  return Object.fromEntries(entries) as ToolSet;
}

export function floorScenario(n: number, latencyMs: number, { singleConsumer = false, toolsLikeOurs = false } = {}): () => Promise<string> {
  const stream = singleConsumer ? experimental_streamTextLowMemory : streamText;
  const child = childModel(latencyMs);
  const supervisor = supervisorModel('delegate', { task: TASK, agents: agentNames(n) });
  const childTools = toolsLikeOurs
    ? { tools: idleTools(OUR_TOOL_COUNTS.child + OUR_TOOL_COUNTS.childHidden, 'child_tool_'), stopWhen: isStepCount(25) }
    : {};
  const supervisorTools = toolsLikeOurs ? idleTools(OUR_TOOL_COUNTS.supervisor - 1, 'supervisor_tool_') : {};
  const delegate = tool({
    description: 'Delegate a task to subagents and wait for their results.',
    inputSchema: z.object({ task: z.string(), agents: z.array(z.string()) }),
    execute: ({ task, agents }, { abortSignal }) =>
      Promise.all(
        agents.map(async (agent) => {
          const run = stream({ model: child, system: `You are ${agent}.`, prompt: task, abortSignal, ...childTools });
          let output = '';
          for await (const part of run.fullStream) if (part.type === 'text-delta') output += part.text;
          return { agent, status: 'ok', output };
        }),
      ),
  });
  return async () => {
    const run = stream({
      model: supervisor,
      prompt: 'Delegate the survey.',
      tools: { ...supervisorTools, delegate },
      stopWhen: isStepCount(2),
    });
    let answer = '';
    for await (const part of run.fullStream) if (part.type === 'text-delta') answer += part.text;
    return answer;
  };
}
