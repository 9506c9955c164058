import { z } from 'zod';
import type { Profile } from '../profiles/profile';
import { threadHistory } from '../threads/threadHistory';
import { defineTool, type AnyToolSpec } from '../tools/toolSpec';
import type { EmitRunEvent } from '../agent/runEvents';
import { errorText } from '../agent/toAiTools';
import { describeAgents, matchAgents } from './agentNames';
import { childThreadId } from './childThreadId';
import { mapPool } from './mapPool';
import type { RunHandle, RunResult } from './runHandle';
import type { LaunchRequest } from './launchRun';
import type { Session } from './session';

const inputSchema = z.object({
  task: z.string().describe('The complete task for the subagents: what to do and what to report back. They see nothing else of this conversation.'),
  agents: z.array(z.string()).describe('Names of one or more subagents. Several names run the same task in parallel, one run each.'),
  context: z.string().optional().describe('Facts, file paths or constraints the subagents need; they cannot see your conversation.'),
  continueThreadId: z
    .string()
    .optional()
    .describe("Continue a subagent's earlier thread (its threadId from a previous result) with its history; one agent only."),
});
type DelegateInput = z.infer<typeof inputSchema>;

export interface DelegateDeps {
  session: Session;
  caller: RunHandle;
  /** The profiles this caller may delegate to. */
  delegates: readonly Profile[];
  emit: EmitRunEvent;
  launch: (request: LaunchRequest) => RunHandle;
}

/**
 * `delegate_task`: runs one task on one or more subagents in parallel (bounded by maxConcurrency)
 * and returns, when all are done, their results in request order. Mistakes come back as results
 * the model can act on, never as exceptions.
 */
export function delegateTaskTool(deps: DelegateDeps): AnyToolSpec {
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

async function delegate(deps: DelegateDeps, input: DelegateInput, toolCallId: string): Promise<RunResult[] | { error: string }> {
  const { session, caller, delegates, emit } = deps;
  const task = input.task.trim();
  if (!task) return { error: 'delegate_task needs a non-empty "task": say what the subagents should do and report.' };
  if (input.agents.length === 0) {
    return { error: `delegate_task needs at least one name in "agents". Available agents: ${describeAgents(delegates)}.` };
  }
  const { matched, unknown, duplicates } = matchAgents(input.agents, delegates);
  if (unknown.length > 0) {
    emit({ kind: 'warning', message: `Skipped unknown agent${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${n}"`).join(', ')}; available: ${delegates.map((d) => d.name).join(', ') || '(none)'}.` });
  }
  if (duplicates.length > 0) emit({ kind: 'warning', message: `Each agent runs once per call; ignored the repeated ${duplicates.map((n) => `"${n}"`).join(', ')}.` });
  if (matched.length === 0) {
    return { error: `None of the requested agents (${input.agents.join(', ')}) is available. Available agents: ${describeAgents(delegates)}.` };
  }
  if (input.continueThreadId !== undefined && matched.length !== 1) {
    return { error: 'continueThreadId continues one subagent\'s thread: name exactly one agent, or leave continueThreadId out to start afresh.' };
  }
  const prompt = input.context?.trim() ? `${task}\n\n## Context\n${input.context.trim()}` : task;
  if (input.continueThreadId !== undefined) {
    const refusal = await checkContinuation(session, caller, input.continueThreadId, matched[0]!.name);
    if (refusal) return [failed(matched[0]!.name, input.continueThreadId, refusal)];
  }
  return mapPool(matched, session.settings.maxConcurrency, async (profile) => {
    const threadId = input.continueThreadId ?? childThreadId(caller.threadId, profile.name, toolCallId);
    try {
      const loaded = await session.store.open({ id: threadId, title: firstLine(task), parentThreadId: caller.threadId, agent: profile.name });
      const child = deps.launch({
        threadId,
        rootThreadId: caller.rootThreadId,
        parent: caller,
        parentToolCallId: toolCallId,
        profile,
        task,
        prompt,
        history: threadHistory(threadId, loaded.events),
      });
      return await child.done;
    } catch (error) {
      return failed(profile.name, threadId, `Could not start the subagent: ${errorText(error)}`);
    }
  });
}

/** Why this caller may not continue that thread with that agent, or undefined when it may. */
async function checkContinuation(session: Session, caller: RunHandle, threadId: string, agent: string): Promise<string | undefined> {
  const existing = await session.store.get(threadId).catch(() => undefined);
  if (!existing) return `There is no thread ${threadId}. Leave out continueThreadId to start a fresh thread with "${agent}".`;
  if (existing.meta.parentThreadId !== caller.threadId) {
    return `Thread ${threadId} was not started from this conversation, so it cannot be continued here. Leave out continueThreadId to start afresh.`;
  }
  if (existing.meta.agent !== agent) {
    return `Thread ${threadId} belongs to agent "${existing.meta.agent}", not "${agent}". Continue it with "${existing.meta.agent}", or leave out continueThreadId to start a fresh thread with "${agent}".`;
  }
  const active = session.registry.activeInThread(threadId);
  if (active) return `Thread ${threadId} is busy: run ${active.runId} is still working in it. Wait for it, or cancel it first.`;
  return undefined;
}

function failed(agent: string, threadId: string, error: string): RunResult {
  return { agent, runId: '', threadId, status: 'error', output: '', error, usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 }, durationMs: 0 };
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0]!.trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
