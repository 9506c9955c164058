import { z } from 'zod';
import { lazySchema } from '../../../shared/lazySchema';
import { errorText } from '../../../shared/errorText';
import { steerRun } from '../steering/steerRun';
import { defineTool, type AnyToolSpec } from '../../tools/toolSpec';
import { resolveAgents } from './agentNames';
import { withContext } from './delegateTask';
import type { DelegationDeps } from './delegationTypes';
import { announcementText, resultForModel, type ModelRunResult } from './modelResult';
import type { ChildRecord, RunHandle } from './runHandle';
import type { RunResult } from './runResult';
import { startChild } from './startChild';
import { CONTEXT_TEXT, CONTINUE_TEXT, MAX_TOKENS_TEXT, RUN_ID_TEXT, TASK_TEXT } from './delegationFields';
import { waitForRuns } from './waitForRuns';

/**
 * The background tools: start a subagent and go on working; look at it, wait for it, or cancel it.
 * Only runs this run started are reachable. A background child's result reaches the parent
 * exactly once: returned by status/await, or else announced as a message when it ends.
 */
// Schemas are made once (on the first tool set, not at load): the SDK converts each schema object to
// JSON schema once, so schemas made per run would be converted again for every run.
const startInput = lazySchema(() =>
  z.object({
    task: z.string().describe(TASK_TEXT),
    agent: z.string(),
    context: z.string().optional().describe(CONTEXT_TEXT),
    continueThreadId: z.string().optional().describe(CONTINUE_TEXT),
    maxTokens: z.number().int().positive().optional().describe(MAX_TOKENS_TEXT),
  }),
);
const runInput = lazySchema(() => z.object({ runId: z.string().describe(RUN_ID_TEXT) }));
const messageInput = lazySchema(() => z.object({ runId: z.string().describe(RUN_ID_TEXT), message: z.string() }));
const awaitInput = lazySchema(() =>
  z.object({
    runIds: z.array(z.string()).min(1).describe(RUN_ID_TEXT),
    timeoutMs: z.number().int().positive().optional(),
  }),
);

export function subagentTools(deps: DelegationDeps): AnyToolSpec[] {
  return [startTool(deps), statusTool(deps), awaitTool(deps), cancelTool(deps), messageTool(deps)];
}

function startTool(deps: DelegationDeps): AnyToolSpec {
  return defineTool<z.infer<typeof startInput>>({
    name: 'subagent_start',
    description:
      'Start a subagent in the background; returns {status, runId, threadId} at once. Its result is announced to you when it ends.',
    capabilities: ['delegate'],
    inputSchema: startInput,
    execute: async (args, { toolCallId }) => {
      const task = args.task.trim();
      if (!task) return { error: 'subagent_start needs a non-empty "task".' };
      const resolved = resolveAgents(deps, [args.agent]);
      if ('error' in resolved) return resolved;
      const outcome = await startChild(deps, {
        profile: resolved.profiles[0]!,
        task,
        prompt: withContext(task, args.context),
        toolCallId,
        background: true,
        tool: 'subagent_start',
        ...(args.maxTokens === undefined ? {} : { maxTokens: args.maxTokens }),
        ...(args.continueThreadId === undefined ? {} : { continueThreadId: args.continueThreadId }),
      });
      switch (outcome.kind) {
        case 'refused':
          return { error: outcome.error };
        case 'busy':
          return {
            status: 'busy',
            runId: outcome.runId,
            threadId: outcome.threadId,
            note: 'That thread is still working; nothing was queued. Await or cancel that run first.',
          };
        case 'existing':
          return { status: 'existing', runId: outcome.runId, threadId: outcome.threadId };
        case 'started':
          announceWhenDone(deps, outcome.record);
          return { status: 'started', runId: outcome.record.handle.runId, threadId: outcome.record.handle.threadId };
      }
    },
  });
}

function statusTool(deps: DelegationDeps): AnyToolSpec {
  return defineTool<z.infer<typeof runInput>>({
    name: 'subagent_status',
    description: "A background subagent's status, recent progress and tokens used; its result once it has finished.",
    capabilities: ['delegate'],
    inputSchema: runInput,
    execute: async ({ runId }) => {
      const record = deps.caller.child(runId);
      if (!record) return notOwned(deps.caller, runId);
      const { result, progress } = record.handle;
      if (!result)
        return { runId, agent: record.handle.agent, status: 'running', progress: [...progress], tokens: tokensOf(record.handle) };
      deps.caller.delivered(record);
      return { ...answerOf(result), progress: [...progress] };
    },
  });
}

function awaitTool(deps: DelegationDeps): AnyToolSpec {
  return defineTool<z.infer<typeof awaitInput>>({
    name: 'subagent_await',
    description:
      'Wait for background subagents; returns their results in order. After timeoutMs, a run still working comes back as "running" with timedOut: true.',
    capabilities: ['delegate'],
    inputSchema: awaitInput,
    execute: async ({ runIds, timeoutMs }, { signal }) => {
      const records: ChildRecord[] = [];
      for (const id of runIds) {
        const record = deps.caller.child(id);
        if (!record) return notOwned(deps.caller, id);
        records.push(record);
      }
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
  });
}

function cancelTool(deps: DelegationDeps): AnyToolSpec {
  return defineTool<z.infer<typeof runInput>>({
    name: 'subagent_cancel',
    description: 'Cancel a background subagent and all it started; returns what it had done.',
    capabilities: ['delegate'],
    inputSchema: runInput,
    execute: async ({ runId }) => {
      const record = deps.caller.child(runId);
      if (!record) return notOwned(deps.caller, runId);
      record.handle.stop('parent');
      const result = await record.handle.done;
      deps.caller.delivered(record);
      return answerOf(result);
    },
  });
}

function messageTool(deps: DelegationDeps): AnyToolSpec {
  return defineTool<z.infer<typeof messageInput>>({
    name: 'subagent_message',
    description:
      'Send a working background subagent a message (a correction, a hint); it sees it before its next model call. For a finished one, continue its thread.',
    capabilities: ['delegate'],
    inputSchema: messageInput,
    execute: async ({ runId, message }) => {
      const record = deps.caller.child(runId);
      if (!record) return notOwned(deps.caller, runId);
      const text = message.trim();
      if (!text) return { error: 'subagent_message needs a non-empty "message".' };
      const refused = steerRun(record.handle, 'parent', text);
      if (refused) return { error: refused, status: record.handle.result?.status ?? 'finishing', threadId: record.handle.threadId };
      return { delivered: true, runId, note: 'It will see your message before its next model call.' };
    },
  });
}

/**
 * A child's result as subagent_status and subagent_cancel answer it. A cancelled child is a state
 * the call reports, not a failure of the call: why it stopped goes in `note`, not `error` (which
 * would mark the call itself as failed in the tree and the thread).
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
