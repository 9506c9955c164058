import { z } from 'zod';
import { lazySchema } from '../../../shared/lazySchema';
import { errorText } from '../../../shared/errorText';
import { steerRun } from '../steering/steerRun';
import { defineTool, type AnyToolSpec } from '../../tools/toolSpec';
import type { DelegationDeps } from './delegationTypes';
import { announcementText, resultForModel, type ModelRunResult } from './modelResult';
import type { ChildRecord, RunHandle } from './runHandle';
import type { RunResult } from './runResult';
import type { StartOutcome } from './delegationTypes';
import { waitForRuns } from './waitForRuns';

/**
 * `background_runs`: what a run does with the subagents it started with `delegate_task`'s
 * `background: true`: look at them, wait for them, cancel them, or send them a message (one tool
 * with an action, not four: every model call carries each tool's schema). Only runs this run
 * started are reachable. A background child's result reaches the parent exactly once: returned
 * here, or else announced as a message when it ends.
 */
export const BACKGROUND_RUNS = 'background_runs';

const ACTIONS = ['status', 'wait', 'cancel', 'message'] as const;
type Action = (typeof ACTIONS)[number];

// Made once (on the first tool set, not at load): the SDK converts each schema object to JSON schema once.
const inputSchema = lazySchema(() =>
  z.object({
    action: z.enum(ACTIONS),
    runIds: z.array(z.string()).min(1).max(32),
    message: z.string().optional().describe('For message.'),
    timeoutMs: z.number().int().positive().optional().describe('For wait.'),
  }),
);
type BackgroundInput = z.infer<typeof inputSchema>;

export function backgroundRunsTool(deps: DelegationDeps): AnyToolSpec {
  return defineTool<BackgroundInput>({
    name: BACKGROUND_RUNS,
    description:
      'Reach subagents started with background: true. status: progress, or the result once done. ' +
      'wait: their results (timedOut if still running after timeoutMs). cancel: stop them. message: they read it before their next step.',
    capabilities: ['delegate'],
    inputSchema,
    execute: async (input, { signal }) => {
      const records: ChildRecord[] = [];
      for (const id of input.runIds) {
        const record = deps.caller.child(id);
        if (!record) return notOwned(deps.caller, id);
        records.push(record);
      }
      if (input.message !== undefined && input.action !== 'message')
        return { error: `"message" goes with action "message", not "${input.action}": leave it out, or use action "message".` };
      return ACT[input.action](deps, records, input, signal);
    },
  });
}

type Act = (deps: DelegationDeps, records: ChildRecord[], input: BackgroundInput, signal: AbortSignal) => Promise<unknown>;

const ACT: Readonly<Record<Action, Act>> = {
  status: async (deps, records) =>
    records.map((record) => {
      const { result, progress, runId, agent } = record.handle;
      if (!result) return { runId, agent, status: 'running', progress: [...progress], tokens: tokensOf(record.handle) };
      deps.caller.delivered(record);
      return { ...answerOf(result), progress: [...progress] };
    }),
  wait: async (deps, records, { timeoutMs }, signal) => {
    // While it waits, this call returns the results itself: no announcement says them again.
    for (const r of records) r.awaited++;
    try {
      await waitForRuns(
        records.map((r) => r.handle),
        timeoutMs,
        signal,
      );
    } finally {
      for (const r of records) r.awaited--;
    }
    return records.map((r) => {
      const { handle } = r;
      if (!handle.result)
        return {
          runId: handle.runId,
          agent: handle.agent,
          threadId: handle.threadId,
          status: 'running',
          timedOut: true,
          progress: [...handle.progress],
        };
      deps.caller.delivered(r);
      return resultForModel(handle.result);
    });
  },
  cancel: async (deps, records) => {
    for (const r of records) r.handle.stop('parent');
    return Promise.all(
      records.map(async (r) => {
        const result = await r.handle.done;
        deps.caller.delivered(r);
        return answerOf(result);
      }),
    );
  },
  message: async (_deps, records, { message }) => {
    const text = message?.trim();
    if (!text) return { error: 'Action "message" needs a non-empty "message": what the subagent should read.' };
    return records.map(({ handle }) => {
      const refused = steerRun(handle, 'parent', text);
      if (refused) return { runId: handle.runId, error: refused, status: handle.result?.status ?? 'finishing', threadId: handle.threadId };
      return { runId: handle.runId, delivered: true, note: 'It will see your message before its next model call.' };
    });
  },
};

/** A background start as the model is told it: the ids to reach the run by, at once. */
export function startedAnswer(deps: DelegationDeps, agent: string, outcome: StartOutcome): Record<string, unknown> {
  switch (outcome.kind) {
    case 'refused':
      return { agent, error: outcome.error };
    case 'busy':
      return {
        agent,
        status: 'busy',
        runId: outcome.runId,
        threadId: outcome.threadId,
        note: 'That thread is still working; nothing was queued. Wait for that run or cancel it first (background_runs).',
      };
    case 'existing':
      return { agent, status: 'existing', runId: outcome.runId, threadId: outcome.threadId };
    case 'started':
      announceWhenDone(deps, outcome.record);
      return { agent, status: 'started', runId: outcome.record.handle.runId, threadId: outcome.record.handle.threadId };
  }
}

/**
 * A child's result as status and cancel answer it. A cancelled child is a state the call reports,
 * not a failure of the call: why it stopped goes in `note`, not `error` (which would mark the call
 * itself as failed in the tree and the thread).
 */
function answerOf(result: RunResult): ModelRunResult | (Omit<ModelRunResult, 'error'> & { note: string }) {
  const answer = resultForModel(result);
  if (answer.status !== 'cancelled' || answer.error === undefined) return answer;
  const { error, ...rest } = answer;
  return { ...rest, note: error };
}

/** When a background child ends and nobody has taken its result, the parent gets a message. */
function announceWhenDone(deps: DelegationDeps, record: ChildRecord): void {
  record.handle.done
    .then((result) => deps.caller.announce(record, announcementText(result)))
    .catch((error: unknown) =>
      deps.session.logger.error(`Could not announce the end of a "${record.handle.agent}" run: ${errorText(error)}`),
    );
}

/** What a working child (with its subtree) has used so far, and its limit when it has one. */
function tokensOf(run: RunHandle): { used: number; limit?: number } {
  const limit = run.budget.limit?.value;
  return { used: run.budget.used, ...(limit === undefined ? {} : { limit }) };
}

function notOwned(caller: RunHandle, runId: string): { error: string } {
  const mine = caller.allChildren().map((c) => c.handle.runId);
  return {
    error: `Run ${runId} was not started by this run, so it cannot be reached from here. Runs you started: ${mine.join(', ') || '(none)'}.`,
  };
}
