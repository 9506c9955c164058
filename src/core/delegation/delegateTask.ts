import pLimit from 'p-limit';
import { z } from 'zod';
import { lazySchema } from '../../shared/lazySchema';
import { defineTool, type AnyToolSpec } from '../tools/toolSpec';
import { resolveAgents } from './agentNames';
import type { DelegationDeps } from './delegationTypes';
import { resultForModel, type ModelRunResult } from './modelResult';
import { failedResult, type RunResult } from './runResult';
import { startChild } from './startChild';

const inputSchema = lazySchema(() =>
  z.object({
    task: z.string().describe('The complete task for the subagents: what to do and what to report back. They see nothing else of this conversation.'),
    agents: z.array(z.string()).describe('Names of one or more subagents. Several names run the same task in parallel, one run each.'),
    context: z.string().optional().describe('Facts, file paths or constraints the subagents need; they cannot see your conversation.'),
    continueThreadId: z
      .string()
      .optional()
      .describe("Continue a subagent's earlier thread (its threadId from a previous result) with its history; one agent only."),
    maxTokens: z
      .number()
      .int()
      .positive()
      .optional()
      .describe("At most this many tokens (input plus output) for each subagent's run, its own subagents included. Can only lower the agent's own maxTokens."),
  }),
);
type DelegateInput = z.infer<typeof inputSchema>;

/**
 * `delegate_task`: runs one task on one or more subagents in parallel and returns, when all are
 * done, their results in request order. How many work at once is the engine's limiter's to say
 * (subagents.maxConcurrency, across every call and thread); this call holds no place while it
 * waits. Mistakes come back as results the model can act on, never as exceptions.
 */
export function delegateTaskTool(deps: DelegationDeps): AnyToolSpec {
  return defineTool<DelegateInput>({
    name: 'delegate_task',
    description:
      'Delegate a task to subagents and wait for their results. Each agent gets its own run with only the task and context you give it. ' +
      'Returns an array, in the order of `agents`, of {agent, runId, threadId, status, output, error?, usage, durationMs}.',
    capabilities: ['delegate'],
    inputSchema,
    execute: (input, context) => delegate(deps, input, context.toolCallId),
  });
}

async function delegate(deps: DelegationDeps, input: DelegateInput, toolCallId: string): Promise<ModelRunResult[] | { error: string }> {
  const task = input.task.trim();
  if (!task) return { error: 'delegate_task needs a non-empty "task": say what the subagents should do and report.' };
  const resolved = resolveAgents(deps, input.agents);
  if ('error' in resolved) return resolved;
  const matched = resolved.profiles;
  if (input.continueThreadId !== undefined && matched.length !== 1) {
    return { error: "continueThreadId continues one subagent's thread: name exactly one agent, or leave continueThreadId out to start afresh." };
  }
  const prompt = withContext(task, input.context);
  // Queue rather than refuse: this call's own children never exceed the active-children limit.
  const results = await pLimit(deps.session.settings.maxActiveChildren).map(matched, async (profile): Promise<RunResult> => {
    const outcome = await startChild(deps, {
      profile,
      task,
      prompt,
      toolCallId,
      background: false,
      tool: 'delegate_task',
      ...(input.maxTokens === undefined ? {} : { maxTokens: input.maxTokens }),
      ...(input.continueThreadId === undefined ? {} : { continueThreadId: input.continueThreadId }),
    });
    switch (outcome.kind) {
      case 'started': {
        const result = await outcome.record.handle.done;
        deps.caller.delivered(outcome.record);
        return result;
      }
      case 'existing':
        return outcome.result ?? (await (outcome.record?.handle.done ?? Promise.resolve(failedResult(profile.name, outcome.threadId, `Run ${outcome.runId} was started by this call before and did not finish.`))));
      case 'busy':
        return failedResult(profile.name, outcome.threadId, `Thread ${outcome.threadId} is busy: run ${outcome.runId} is still working in it. Wait for it, or cancel it first.`);
      case 'refused':
        return failedResult(profile.name, outcome.threadId, outcome.error);
    }
  });
  // A returnDirectly subagent's answer is the caller's final answer, verbatim.
  const bail = results.findIndex((r, i) => r.status === 'ok' && matched[i]!.returnDirectly);
  if (bail >= 0) {
    const { agent, output } = results[bail]!;
    deps.caller.bailWith(agent, output);
    results[bail] = { ...results[bail]!, bailed: true };
  }
  return results.map(resultForModel);
}

export function withContext(task: string, context: string | undefined): string {
  return context?.trim() ? `${task}\n\n## Context\n${context.trim()}` : task;
}
