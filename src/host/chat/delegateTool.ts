import { z } from 'zod';
import { lazySchema } from '../../shared/lazySchema';
import { findProfile } from '../../core/config/profiles/findProfile';
import { newThreadId } from '../../core/storage/threads/newThreadId';
import type { PromptQueue } from '../../core/engine/requests/promptQueue';
import type { ProfileSet } from '../../core/config/profiles/profile';
import { oneLine } from '../../shared/oneLine';
import type { ChatCancellationToken } from './chatShapes';
import { followRequest, type ChatEngine } from './followRequest';

/** The tool's name, as package.json's languageModelTools declares it. */
export const DELEGATE_TOOL = 'subagents_delegate';

export const delegateInputSchema = lazySchema(() =>
  z.object({
    agent: z.string().trim().min(1),
    task: z.string().trim().min(1),
    context: z.string().optional(),
  }),
);

export interface DelegateToolDeps {
  engine: ChatEngine;
  queue: PromptQueue;
  profiles(): ProfileSet;
}

/** What Copilot shows before the call: which agent, and the task, to confirm. */
export function prepareDelegation(
  deps: DelegateToolDeps,
  input: unknown,
): { invocationMessage: string; confirmationMessages: { title: string; message: string } } {
  const { agent, task } = checkedInput(deps, input);
  return {
    invocationMessage: `Delegating to the subagent "${agent}"…`,
    confirmationMessages: {
      title: `Run the subagent "${agent}"?`,
      message: `The Subagents agent "${agent}" works on this task in this workspace, with its own tools and approvals (shown in the Subagents panel):\n\n${oneLine(task, 500)}`,
    },
  };
}

/**
 * Copilot's agent hands a task to one of our profiles: the profile answers a new thread (titled
 * by the task, so it reads as the request in our panel's list and tree), through the same queue
 * as the panel, with the model the profile or `subagents.model` names. The result is the agent's
 * output with its status, as text for the calling model; a cancel stops the run.
 */
export async function invokeDelegation(deps: DelegateToolDeps, input: unknown, token: ChatCancellationToken): Promise<string> {
  const { agent, task, context } = checkedInput(deps, input);
  const prompt = context?.trim() ? `${task}\n\nContext from the caller:\n${context.trim()}` : task;
  const threadId = newThreadId();
  const finished = await followRequest(deps, { threadId, prompt, agent }, {}, token);
  const head = `Subagent "${agent}" finished with status ${finished.status}${finished.error ? ` (${finished.error})` : ''}. Its thread is ${threadId} in the Subagents panel.`;
  return `${head}\n\n${finished.output || '(no output)'}`;
}

function checkedInput(deps: DelegateToolDeps, input: unknown): z.infer<typeof delegateInputSchema> {
  const parsed = delegateInputSchema.safeParse(input);
  if (!parsed.success)
    throw new Error(
      `subagents_delegate needs {agent, task, context?} with an agent name and a task: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'input'} ${i.message}`).join('; ')}.`,
    );
  const profiles = deps.profiles().profiles;
  const name = parsed.data.agent;
  const agent = findProfile(profiles, name)?.name;
  if (!agent) throw new Error(`There is no enabled Subagents agent "${name}". Agents: ${[...profiles.keys()].join(', ') || '(none)'}.`);
  return { ...parsed.data, agent };
}
