import { z } from 'zod';
import { defineTool, type AnyToolSpec } from '../tools/toolSpec';
import { resolveAgents } from './agentNames';
import { withContext } from './delegateTask';
import { announcementText, resultForModel } from './modelResult';
import type { ChildRecord, RunHandle } from './runHandle';
import { startChild, type DelegationDeps } from './startChild';

/**
 * The background tools: start a subagent and go on working; look at it, wait for it, or cancel it.
 * Only runs this run started are reachable. A background child's result reaches the parent
 * exactly once: returned by status/await, or else announced as a message when it ends.
 */
// Schemas are made once: the SDK converts each schema object to JSON schema once, so schemas made
// per run would be converted again for every run.
const startInput = z.object({
  task: z.string().describe('The complete task for the subagent: what to do and what to report back.'),
  agent: z.string().describe('The name of one subagent.'),
  context: z.string().optional().describe('Facts, file paths or constraints it needs; it cannot see your conversation.'),
  continueThreadId: z.string().optional().describe("Continue the subagent's earlier thread (a threadId from a previous result)."),
});
const runInput = z.object({ runId: z.string().describe('A runId returned by subagent_start.') });
const awaitInput = z.object({
  runIds: z.array(z.string()).min(1).describe('runIds returned by subagent_start.'),
  timeoutMs: z.number().int().positive().optional().describe('Stop waiting after this long and return a snapshot (timedOut: true).'),
});

export function subagentTools(deps: DelegationDeps): AnyToolSpec[] {
  return [startTool(deps), statusTool(deps), awaitTool(deps), cancelTool(deps)];
}

function startTool(deps: DelegationDeps): AnyToolSpec {
  return defineTool<z.infer<typeof startInput>>({
    name: 'subagent_start',
    description:
      'Start a subagent in the background and return at once with {status: started|existing|busy, runId, threadId}. ' +
      'Keep working; its result is announced to you when it ends, or use subagent_status / subagent_await.',
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
        ...(args.continueThreadId === undefined ? {} : { continueThreadId: args.continueThreadId }),
      });
      switch (outcome.kind) {
        case 'refused':
          return { error: outcome.error };
        case 'busy':
          return { status: 'busy', runId: outcome.runId, threadId: outcome.threadId, note: 'That thread is still working; nothing was queued. Await or cancel that run first.' };
        case 'existing':
          return { status: 'existing', runId: outcome.runId, threadId: outcome.threadId };
        case 'started':
          announceWhenDone(deps.caller, outcome.record);
          return { status: 'started', runId: outcome.record.handle.runId, threadId: outcome.record.handle.threadId };
      }
    },
  });
}

function statusTool(deps: DelegationDeps): AnyToolSpec {
  return defineTool<z.infer<typeof runInput>>({
    name: 'subagent_status',
    description: "A subagent's status, its last 3 progress items, and its output once it has finished.",
    capabilities: ['delegate'],
    inputSchema: runInput,
    execute: async ({ runId }) => {
      const record = owned(deps.caller, runId);
      if (!record) return notOwned(deps.caller, runId);
      if (!record.result) return { runId, agent: record.handle.agent, status: 'running', progress: record.handle.progress.slice(-3) };
      markDelivered(deps.caller, record);
      return { ...resultForModel(record.result), progress: record.handle.progress.slice(-3) };
    },
  });
}

function awaitTool(deps: DelegationDeps): AnyToolSpec {
  return defineTool<z.infer<typeof awaitInput>>({
    name: 'subagent_await',
    description:
      'Wait for background subagents and return their results in order. With timeoutMs, returns when the time is up: ' +
      'runs still working are reported with status "running" and timedOut: true (not finished, not a success).',
    capabilities: ['delegate'],
    inputSchema: awaitInput,
    execute: async ({ runIds, timeoutMs }, { signal }) => {
      const records: ChildRecord[] = [];
      for (const id of runIds) {
        const record = owned(deps.caller, id);
        if (!record) return notOwned(deps.caller, id);
        records.push(record);
      }
      for (const r of records) r.awaited++;
      try {
        await waitAll(records, timeoutMs, signal);
      } finally {
        for (const r of records) r.awaited--;
      }
      return records.map((r) => {
        if (!r.result) return { runId: r.handle.runId, agent: r.handle.agent, threadId: r.handle.threadId, status: 'running', timedOut: true, progress: r.handle.progress.slice(-3) };
        markDelivered(deps.caller, r);
        return resultForModel(r.result);
      });
    },
  });
}

function cancelTool(deps: DelegationDeps): AnyToolSpec {
  return defineTool<z.infer<typeof runInput>>({
    name: 'subagent_cancel',
    description: 'Cancel a background subagent and everything it started. Returns its final status.',
    capabilities: ['delegate'],
    inputSchema: runInput,
    execute: async ({ runId }) => {
      const record = owned(deps.caller, runId);
      if (!record) return notOwned(deps.caller, runId);
      record.handle.controller.abort(new Error('cancelled'));
      const result = await record.handle.done;
      markDelivered(deps.caller, record);
      return { runId, agent: result.agent, status: result.status };
    },
  });
}

/** When a background child ends and nobody has taken its result, the parent gets a message. */
function announceWhenDone(parent: RunHandle, record: ChildRecord): void {
  void record.handle.done.then((result) => {
    if (record.delivered || record.awaited > 0) return;
    const key = `${result.threadId}:${result.runId}`;
    if (parent.announced.has(key)) return;
    parent.announced.add(key);
    record.delivered = true;
    parent.mailbox.push({ key, text: announcementText(result) });
  });
}

function markDelivered(parent: RunHandle, record: ChildRecord): void {
  record.delivered = true;
  // Seen through a tool: its announcement, if one is waiting, would say it twice.
  const key = `${record.handle.threadId}:${record.handle.runId}`;
  parent.announced.add(key);
  parent.mailbox = parent.mailbox.filter((a) => a.key !== key);
}

function owned(caller: RunHandle, runId: string): ChildRecord | undefined {
  return caller.children.get(runId);
}

function notOwned(caller: RunHandle, runId: string): { error: string } {
  const mine = [...caller.children.keys()];
  return { error: `Run ${runId} was not started by this run, so it cannot be reached from here. Runs you started: ${mine.join(', ') || '(none)'}.` };
}

function waitAll(records: readonly ChildRecord[], timeoutMs: number | undefined, signal: AbortSignal): Promise<void> {
  const all = Promise.all(records.map((r) => r.handle.done)).then(() => undefined);
  return new Promise<void>((resolve) => {
    const timer = timeoutMs === undefined ? undefined : setTimeout(resolve, timeoutMs);
    const onAbort = () => resolve();
    signal.addEventListener('abort', onAbort, { once: true });
    void all.then(() => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}
