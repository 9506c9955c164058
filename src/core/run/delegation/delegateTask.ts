import pLimit from 'p-limit';
import { z } from 'zod';
import { lazySchema } from '../../../shared/lazySchema';
import { defineTool, type AnyToolSpec } from '../../tools/toolSpec';
import type { Profile } from '../../config/profiles/profile';
import { describeAgents, resolveAgents } from './agentNames';
import type { DelegationDeps } from './delegationTypes';
import { resultForModel, type ModelRunResult } from './modelResult';
import { failedResult, type RunResult } from './runResult';
import { startChild } from './startChild';
import { BACKGROUND_TEXT, CONTEXT_TEXT, CONTINUE_TEXT, MAX_TOKENS_TEXT, TASK_TEXT } from './delegationFields';
import { startedAnswer } from './backgroundRuns';

const inputSchema = lazySchema(() =>
  z.object({
    task: z.string().optional().describe(TASK_TEXT),
    agents: z.array(z.string()).optional(),
    tasks: z
      .array(z.object({ agent: z.string(), task: z.string(), context: z.string().optional() }))
      .optional()
      .describe('Instead of task and agents.'),
    context: z.string().optional().describe(CONTEXT_TEXT),
    continueThreadId: z.string().optional().describe(`${CONTINUE_TEXT}; one agent only.`),
    maxTokens: z.number().int().positive().optional().describe(MAX_TOKENS_TEXT),
    background: z.boolean().optional().describe(BACKGROUND_TEXT),
  }),
);
type DelegateInput = z.infer<typeof inputSchema>;

/**
 * `delegate_task`: runs one task on one or more subagents in parallel and returns, when all are
 * done, their results in request order. How many work at once is the engine's limiter's to say
 * (subagents.maxConcurrency, across every call and thread); this call holds no place while it
 * waits. With `background: true` it returns at once with each run's ids instead, each result is
 * announced when it ends, and `background_runs` reaches the runs meanwhile. Mistakes come back as
 * results the model can act on, never as exceptions.
 */
export function delegateTaskTool(deps: DelegationDeps): AnyToolSpec {
  return defineTool<DelegateInput>({
    name: 'delegate_task',
    description:
      'Run subagents and wait for their results, in order: one task on several agents (task, agents) or a task each (tasks). ' +
      'Each sees only its task and context.',
    capabilities: ['delegate'],
    inputSchema,
    execute: (input, context) => delegate(deps, input, context.toolCallId),
  });
}

/** The most runs one call may ask for with `tasks`: a model cannot queue hundreds of runs in one step. */
const MAX_TASKS = 32;

/** One run a call asks for: which agent, and the task and prompt it gets. */
interface Job {
  /** The name as the model wrote it, for a slot whose agent could not be found. */
  name: string;
  profile?: Profile;
  error?: string;
  task: string;
  prompt: string;
}

async function delegate(
  deps: DelegationDeps,
  input: DelegateInput,
  toolCallId: string,
): Promise<ModelRunResult[] | Record<string, unknown>[] | { error: string }> {
  const jobs = jobsOf(deps, input);
  if ('error' in jobs) return jobs;
  if (input.continueThreadId !== undefined && jobs.length !== 1) {
    return {
      error: "continueThreadId continues one subagent's thread: name exactly one agent, or leave continueThreadId out to start afresh.",
    };
  }
  if (input.background) return startInBackground(deps, input, jobs, toolCallId);
  // Queue rather than refuse: this call's own children never exceed the active-children limit.
  const results = await pLimit(deps.session.settings.maxActiveChildren).map(
    jobs,
    async ({ name, profile, error, task, prompt }): Promise<RunResult> => {
      if (!profile) return failedResult(name, '', error ?? `No agent "${name}".`);
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
          return (
            outcome.result ??
            (await (outcome.record?.handle.done ??
              Promise.resolve(
                failedResult(profile.name, outcome.threadId, `Run ${outcome.runId} was started by this call before and did not finish.`),
              )))
          );
        case 'busy':
          return failedResult(
            profile.name,
            outcome.threadId,
            `Thread ${outcome.threadId} is busy: run ${outcome.runId} is still working in it. Wait for it, or cancel it first.`,
          );
        case 'refused':
          return failedResult(profile.name, outcome.threadId, outcome.error);
      }
    },
  );
  // A returnDirectly subagent's answer is the caller's final answer, verbatim.
  const bail = results.findIndex((r, i) => r.status === 'ok' && jobs[i]!.profile?.returnDirectly);
  if (bail >= 0) {
    const { agent, output } = results[bail]!;
    deps.caller.bailWith(agent, output);
    results[bail] = { ...results[bail]!, bailed: true };
  }
  return results.map(resultForModel);
}

/**
 * `background: true`: each run is started (or refused) and the call returns their ids at once.
 * One after another, not at once: each start counts against subagents.maxActiveChildren, and a
 * start past it is refused with the reason, so the model knows which ones did not start. When
 * none started, the call is an error.
 */
async function startInBackground(
  deps: DelegationDeps,
  input: DelegateInput,
  jobs: Job[],
  toolCallId: string,
): Promise<Record<string, unknown>[] | { error: string }> {
  const answers: Record<string, unknown>[] = [];
  for (const { name, profile, error, task, prompt } of jobs) {
    if (!profile) {
      answers.push({ agent: name, error: error ?? `No agent "${name}".` });
      continue;
    }
    const outcome = await startChild(deps, {
      profile,
      task,
      prompt,
      toolCallId,
      background: true,
      tool: 'delegate_task',
      ...(input.maxTokens === undefined ? {} : { maxTokens: input.maxTokens }),
      ...(input.continueThreadId === undefined ? {} : { continueThreadId: input.continueThreadId }),
    });
    answers.push(startedAnswer(deps, profile.name, outcome));
  }
  // Nothing started: the call failed (and shows so in the tree), with each reason.
  const errors = answers.flatMap((a) => (typeof a.error === 'string' ? [{ agent: String(a.agent), error: a.error }] : []));
  if (errors.length === answers.length)
    return { error: errors.length === 1 ? errors[0]!.error : errors.map((e) => `${e.agent}: ${e.error}`).join('\n') };
  return answers;
}

/**
 * The runs a call asks for, in order. `task` with `agents` runs one task on each named agent (an
 * unavailable name is warned about and skipped). `tasks` gives each agent its own task; an entry
 * whose agent is unavailable keeps its place as an error result, so results match entries one to one.
 */
function jobsOf(deps: DelegationDeps, input: DelegateInput): Job[] | { error: string } {
  const usage = 'delegate_task takes either "task" with "agents" (one task, several agents) or "tasks" (a task per agent), not both.';
  if (input.tasks !== undefined) {
    if (input.task !== undefined || input.agents !== undefined) return { error: usage };
    if (input.tasks.length === 0)
      return { error: `"tasks" is empty: give at least one {agent, task}. Available agents: ${describeAgents(deps.delegates)}.` };
    if (input.tasks.length > MAX_TASKS)
      return {
        error: `"tasks" has ${input.tasks.length} entries; one call takes at most ${MAX_TASKS}. Group the work into fewer, larger tasks, or make several calls.`,
      };
    const blank = input.tasks.findIndex((t) => !t.task.trim());
    if (blank >= 0)
      return { error: `tasks[${blank}] (agent "${input.tasks[blank]!.agent}") has an empty "task": say what it should do and report.` };
    return input.tasks.map((t) => {
      const task = t.task.trim();
      const prompt = withContext(task, [input.context, t.context].filter((c) => c?.trim()).join('\n\n') || undefined);
      const resolved = resolveAgents(deps, [t.agent]);
      return 'error' in resolved
        ? { name: t.agent, error: resolved.error, task, prompt }
        : { name: t.agent, profile: resolved.profiles[0]!, task, prompt };
    });
  }
  const task = input.task?.trim();
  if (!task)
    return {
      error: `delegate_task needs a non-empty "task" (with "agents") or "tasks": say what the subagents should do and report. ${usage}`,
    };
  const resolved = resolveAgents(deps, input.agents ?? []);
  if ('error' in resolved) return resolved;
  const prompt = withContext(task, input.context);
  return resolved.profiles.map((profile) => ({ name: profile.name, profile, task, prompt }));
}

export function withContext(task: string, context: string | undefined): string {
  return context?.trim() ? `${task}\n\n## Context\n${context.trim()}` : task;
}
