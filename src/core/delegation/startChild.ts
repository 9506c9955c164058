import type { EmitRunEvent } from '../agent/runEvents';
import { errorText } from '../../shared/errorText';
import type { Profile } from '../profiles/profile';
import { threadHistory } from '../threads/threadHistory';
import { childThreadId } from './childThreadId';
import type { LaunchRequest } from './launchRun';
import type { ChildRecord, RunHandle, RunResult } from './runHandle';
import type { Session } from './session';
import { titleOf } from '../threads/threadIndex';

export interface DelegationDeps {
  session: Session;
  caller: RunHandle;
  /** The profiles this caller may delegate to. */
  delegates: readonly Profile[];
  emit: EmitRunEvent;
  launch: (request: LaunchRequest) => RunHandle;
}

export interface ChildRequest {
  profile: Profile;
  task: string;
  /** The user message the child sees: the task plus the explicit context. */
  prompt: string;
  toolCallId: string;
  continueThreadId?: string;
  background: boolean;
}

export type StartOutcome =
  | { kind: 'started'; record: ChildRecord }
  /** The same tool call already started this run (a replay): nothing new is started. */
  | { kind: 'existing'; runId: string; threadId: string; record?: ChildRecord; result?: RunResult }
  | { kind: 'busy'; runId: string; threadId: string }
  | { kind: 'refused'; threadId: string; error: string };

/**
 * Starts one child run of the caller, after every check that can refuse it: a replayed tool call,
 * the continuation rules (the thread exists, was started from this conversation, by this agent,
 * and is not busy) and the caller's limit of active children. Refusals say which rule and why.
 */
export async function startChild(deps: DelegationDeps, req: ChildRequest): Promise<StartOutcome> {
  const { session, caller } = deps;
  const threadId = req.continueThreadId ?? childThreadId(caller.threadId, req.profile.name, req.toolCallId);
  const live = findLiveReplay(caller, threadId, req.toolCallId);
  if (live) return live;
  // Checked and reserved before any await: tool calls of one step run concurrently.
  const limit = session.settings.maxActiveChildren;
  const active = [...caller.children.values()].filter((c) => !c.result).length + (reserved.get(caller) ?? 0);
  if (active >= limit) {
    return refused(
      threadId,
      `Too many active subagents: subagents.maxActiveChildren is ${limit} and this run already has ${active} working. Wait for one (subagent_await) or cancel one (subagent_cancel) first.`,
    );
  }
  reserved.set(caller, (reserved.get(caller) ?? 0) + 1);
  try {
    return await checkAndLaunch(deps, req, threadId);
  } finally {
    reserved.set(caller, (reserved.get(caller) ?? 1) - 1);
  }
}

/** Slots taken by starts that are past the limit check but not yet registered as children. */
const reserved = new WeakMap<RunHandle, number>();

async function checkAndLaunch(deps: DelegationDeps, req: ChildRequest, threadId: string): Promise<StartOutcome> {
  const { session, caller } = deps;
  const agent = req.profile.name;
  const replay = await findStoredReplay(deps, threadId, req.toolCallId);
  if (replay) return replay;

  if (req.continueThreadId !== undefined) {
    const existing = await session.store.get(threadId).catch(() => undefined);
    if (!existing) return refused(threadId, `There is no thread ${threadId}. Leave out continueThreadId to start a fresh thread with "${agent}".`);
    if (existing.meta.parentThreadId !== caller.threadId) {
      return refused(threadId, `Thread ${threadId} was not started from this conversation, so it cannot be continued here. Leave out continueThreadId to start afresh.`);
    }
    if (existing.meta.agent !== agent) {
      return refused(
        threadId,
        `Thread ${threadId} belongs to agent "${existing.meta.agent}", not "${agent}". Continue it with "${existing.meta.agent}", or leave out continueThreadId to start a fresh thread with "${agent}".`,
      );
    }
    const active = session.registry.activeInThread(threadId);
    if (active) return { kind: 'busy', runId: active.runId, threadId };
  }

  try {
    const loaded = await session.store.open({ id: threadId, title: titleOf(req.task), parentThreadId: caller.threadId, agent });
    const handle = deps.launch({
      threadId,
      rootThreadId: caller.rootThreadId,
      parent: caller,
      parentToolCallId: req.toolCallId,
      profile: req.profile,
      task: req.task,
      prompt: req.prompt,
      history: threadHistory(threadId, loaded.events),
    });
    const record: ChildRecord = { handle, background: req.background, delivered: false, awaited: 0 };
    caller.children.set(handle.runId, record);
    void handle.done.then((result) => (record.result = result));
    return { kind: 'started', record };
  } catch (error) {
    return refused(threadId, `Could not start the subagent: ${errorText(error)}`);
  }
}

function findLiveReplay(caller: RunHandle, threadId: string, toolCallId: string): StartOutcome | undefined {
  for (const record of caller.children.values()) {
    if (record.handle.threadId === threadId && record.handle.parentToolCallId === toolCallId) {
      return { kind: 'existing', runId: record.handle.runId, threadId, record, ...(record.result ? { result: record.result } : {}) };
    }
  }
  return undefined;
}

/** After a restart a replayed call's run is only on disk. */
async function findStoredReplay(deps: DelegationDeps, threadId: string, toolCallId: string): Promise<StartOutcome | undefined> {
  const stored = await deps.session.store.get(threadId).catch(() => undefined);
  const started = stored?.events.find((e) => e.kind === 'run.started' && e.parentToolCallId === toolCallId);
  if (!stored || !started) return undefined;
  const finished = stored.events.find((e) => e.kind === 'run.finished' && e.runId === started.runId);
  if (!finished || finished.kind !== 'run.finished') return { kind: 'existing', runId: started.runId, threadId };
  const result: RunResult = {
    agent: stored.meta.agent,
    runId: started.runId,
    threadId,
    status: finished.status,
    output: finished.output,
    ...(finished.error === undefined ? {} : { error: finished.error }),
    usage: finished.usage,
    durationMs: finished.durationMs,
  };
  return { kind: 'existing', runId: started.runId, threadId, result };
}

function refused(threadId: string, error: string): StartOutcome {
  return { kind: 'refused', threadId, error };
}

export function failedResult(agent: string, threadId: string, error: string): RunResult {
  return { agent, runId: '', threadId, status: 'error', output: '', error, usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 }, durationMs: 0 };
}
