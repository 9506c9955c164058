import { randomUUID } from 'node:crypto';
import { errorText } from '../../../shared/errorText';
import { ZERO_USAGE } from '../../../shared/usage';
import { FREE_SLOT } from '../agent/workSlot';
import { givenTokens, REQUEST_TOKENS_SOURCE, runLimits } from '../budget/runLimits';
import { budgetWarningText, TokenBudget } from '../budget/tokenBudget';
import { describeModelChoice } from '../runConfig/describeModelChoice';
import type { LaunchRequest } from './delegationTypes';
import { finishRun } from './finishRun';
import { inIsolation } from './isolation';
import { RunEmitter } from './runEmitter';
import { RunHandle } from './runHandle';
import { runTurns } from './runTurns';
import type { RunEnding } from './runWork';
import type { Session } from './session';

/**
 * Starts one run and returns its handle at once. `run.started` is written before this returns,
 * so it follows whatever started the run; `run.finished` is written exactly once, after every
 * child of the run has settled, and nothing of the run is written after it.
 */
export function launchRun(session: Session, request: LaunchRequest): RunHandle {
  const { profile, parent } = request;
  const { settings } = session;
  const limits = runLimits(profile, {
    ...(request.maxTokens ? { call: request.maxTokens } : {}),
    ...(parent ? {} : { request: settings.budget }),
  });
  // Tokens count up the chain: a run's own limit, never more than its parent (or the request) has left.
  // The budget exists before the run's emitter does; its warning is only ever said after the run started.
  const late: { emitter?: RunEmitter } = {};
  const warn = (used: number, limit: { value: number; source: string }) =>
    late.emitter?.emit({ kind: 'warning', code: 'budget', message: budgetWarningText(used, limit) });
  const above =
    parent?.budget ??
    new TokenBudget(
      undefined,
      settings.budget.maxTokens ? { value: settings.budget.maxTokens, source: REQUEST_TOKENS_SOURCE } : undefined,
      warn,
    );
  const given = givenTokens(limits.ownTokens, above, parent === null);
  const run = new RunHandle({
    budget: new TokenBudget(above, limits.ownTokens ? given.limit : undefined, warn),
    runId: `r_${randomUUID().replace(/-/g, '').slice(0, 16)}`,
    threadId: request.threadId,
    rootThreadId: request.rootThreadId,
    agent: profile.name,
    // An external agent (ACP) brings its own model: the run names the program instead.
    modelSpec: profile.acp ? `acp:${profile.acp.command}` : (profile.model ?? parent?.modelSpec ?? settings.model),
    parent,
    ...(request.parentToolCallId === undefined ? {} : { parentToolCallId: request.parentToolCallId }),
  });
  const model = describeModelChoice({
    profile,
    effective: run.modelSpec,
    parentAgent: parent?.agent ?? null,
    aliases: settings.modelAliases,
    problems: session.profiles.problems,
    ...(session.modelOrigin ? { modelOrigin: session.modelOrigin } : {}),
  });
  const emitter = new RunEmitter(session, run);
  late.emitter = emitter;
  const emit = emitter.emit;
  run.onMessage = (from, text) => emit({ kind: 'run.message', from, text });
  emitter.emit({
    kind: 'run.started',
    parentRunId: parent?.runId ?? null,
    parentThreadId: parent?.threadId ?? null,
    ...(request.parentToolCallId === undefined ? {} : { parentToolCallId: request.parentToolCallId }),
    agent: run.agent,
    agentPath: [...run.agentPath],
    depth: run.depth,
    task: request.task,
    model: run.modelSpec,
    ...(model.notable ? { modelVia: model.notable } : {}),
  });
  session.registry.add(run);
  const detach = followParent(run);
  // Subagents share the engine's places; the top run of a request only waits for the user.
  const slot = run.depth > 0 ? session.limiter.slotFor() : undefined;
  const startedAt = session.clock.now();
  const end = { session, run, emitter, slot, startedAt, detach };
  const setup = {
    model,
    limits: {
      maxSteps: limits.maxSteps,
      ...(limits.timeoutMs ? { timeoutMs: limits.timeoutMs } : {}),
      ...(given.limit ? { maxTokens: given.limit } : {}),
    },
  };
  // A worktree profile works (and delegates) in its own worktree: `here` is the session confined there.
  inIsolation(session, run, profile, (here) =>
    runTurns({ session: here, run, request, emitter, setup, slot: slot ?? FREE_SLOT, launch: (r) => launchRun(here, r) }),
  )
    .catch((error: unknown): RunEnding => ({
      status: 'error',
      output: '',
      usage: ZERO_USAGE,
      error: `Internal error: ${errorText(error)}`,
    }))
    .then((ending) => finishRun(end, ending))
    .catch((error: unknown) => session.logger.error(`The "${run.agent}" run failed to end cleanly: ${errorText(error)}`));
  return run;
}

/** A cancelled parent cancels its children; the listener goes when the run ends (no leak per run). */
function followParent(run: RunHandle): () => void {
  const parentSignal = run.parent?.signal;
  if (!parentSignal) return () => {};
  if (parentSignal.aborted) {
    run.cancel(parentSignal.reason as Error);
    return () => {};
  }
  const onAbort = () => run.cancel(parentSignal.reason as Error);
  parentSignal.addEventListener('abort', onAbort, { once: true });
  return () => parentSignal.removeEventListener('abort', onAbort);
}
