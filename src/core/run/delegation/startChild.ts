import { errorText } from '../../../shared/errorText';
import { raisedTokenLimit } from '../budget/runLimits';
import { modelAllowed, modelRefusedText } from '../../models/allowedModels';
import { titleOf } from '../../storage/threads/threadIndex';
import { childThreadId } from './childThreadId';
import { loadConversationHistory } from './conversationHistory';
import type { ChildRequest, DelegationDeps, StartOutcome } from './delegationTypes';
import type { RunHandle } from './runHandle';
import type { RunResult } from './runResult';

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
  const refusal = refusedBeforeStart(deps, req);
  if (refusal) return refused(threadId, refusal);
  // Checked and reserved before any await: tool calls of one step run concurrently.
  const limit = session.settings.maxActiveChildren;
  const active = caller.activeChildren;
  if (active >= limit) {
    return refused(
      threadId,
      `Too many active subagents: subagents.maxActiveChildren is ${limit} and this run already has ${active} working. Wait for one or cancel one first (background_runs).`,
    );
  }
  const release = caller.reserveStart();
  try {
    return await checkAndLaunch(deps, req, threadId);
  } finally {
    release();
  }
}

async function checkAndLaunch(deps: DelegationDeps, req: ChildRequest, threadId: string): Promise<StartOutcome> {
  const { session, caller } = deps;
  const agent = req.profile.name;
  const replay = await findStoredReplay(deps, threadId, req.toolCallId, req.continueThreadId === undefined);
  if (replay) return replay;

  if (req.continueThreadId !== undefined) {
    const existing = await session.store.get(threadId).catch(() => undefined);
    if (!existing)
      return refused(threadId, `There is no thread ${threadId}. Leave out continueThreadId to start a fresh thread with "${agent}".`);
    if (existing.meta.parentThreadId !== caller.threadId) {
      return refused(
        threadId,
        `Thread ${threadId} was not started from this conversation, so it cannot be continued here. Leave out continueThreadId to start afresh.`,
      );
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

  // Stopped (or ended) during the checks or while the thread loads: a child started then would
  // outlive its parent's end.
  const stopped = () => caller.signal.aborted || caller.result !== undefined;
  if (stopped()) return refused(threadId, STOPPED);
  let opened = false;
  try {
    // A fresh delegation's id derives from the caller's thread, whose lease this process holds.
    const loaded = await session.store.open(
      { id: threadId, title: titleOf(req.task), parentThreadId: caller.threadId, agent },
      { newId: req.continueThreadId === undefined },
    );
    opened = true;
    const history = await loadConversationHistory(session.store, threadId, loaded);
    if (stopped()) {
      await session.store.close(threadId);
      return refused(threadId, STOPPED);
    }
    const handle = deps.launch({
      threadId,
      rootThreadId: caller.rootThreadId,
      parent: caller,
      parentToolCallId: req.toolCallId,
      profile: req.profile,
      task: req.task,
      prompt: req.prompt,
      history,
      ...(req.maxTokens === undefined ? {} : { maxTokens: { value: req.maxTokens, tool: req.tool } }),
    });
    return { kind: 'started', record: caller.addChild(handle, req.background) };
  } catch (error) {
    if (opened) await session.store.close(threadId).catch(() => undefined);
    return refused(threadId, `Could not start the subagent: ${errorText(error)}`);
  }
}

/** What no start can get past: a raised token limit, a model the settings do not allow. */
function refusedBeforeStart(deps: DelegationDeps, req: ChildRequest): string | undefined {
  const raised = raisedTokenLimit(req.profile, req.maxTokens, req.tool);
  if (raised) return raised;
  const allowed = deps.session.settings.allowedModels;
  const spec = req.profile.model ?? deps.caller.modelSpec;
  if (!modelAllowed(spec, allowed)) return modelRefusedText(req.profile.name, spec, allowed);
  return undefined;
}

function findLiveReplay(caller: RunHandle, threadId: string, toolCallId: string): StartOutcome | undefined {
  for (const record of caller.allChildren()) {
    const { handle } = record;
    if (handle.threadId === threadId && handle.parentToolCallId === toolCallId) {
      return { kind: 'existing', runId: handle.runId, threadId, record, ...(handle.result ? { result: handle.result } : {}) };
    }
  }
  return undefined;
}

/** After a restart a replayed call's run is only on disk. `derived`: the id comes from the caller's thread and the call. */
async function findStoredReplay(
  deps: DelegationDeps,
  threadId: string,
  toolCallId: string,
  derived: boolean,
): Promise<StartOutcome | undefined> {
  const where = derived ? { parentThreadId: deps.caller.threadId } : undefined;
  const stored = await deps.session.store.get(threadId, where).catch(() => undefined);
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

const STOPPED = 'The run was stopped before the subagent could start.';

function refused(threadId: string, error: string): StartOutcome {
  return { kind: 'refused', threadId, error };
}
