import type { RunStatus } from '../../../shared/events';
import { errorText } from '../../../shared/errorText';
import { addUsage } from '../../../shared/usage';
import { priceOf } from '../../config/prices/modelPrices';
import { priceUsage } from '../../config/prices/priceUsage';
import type { RunSlot } from './workLimiter';
import type { RunEmitter } from './runEmitter';
import type { RunHandle } from './runHandle';
import type { RunResult } from './runResult';
import type { RunEnding } from './runWork';
import type { Session } from './session';

export interface RunEnd {
  session: Session;
  run: RunHandle;
  emitter: RunEmitter;
  slot: RunSlot | undefined;
  startedAt: number;
  /** Undoes what tied the run to the world while it worked (its parent's abort listener). */
  detach: () => void;
}

/**
 * Ends a run once: after every child it started has settled, its open tool calls are closed,
 * `run.finished` is written, and then, whatever writing did, the run lets go of its place,
 * leaves the registry and settles its `done`. A store that fails cannot leave a thread busy.
 */
export async function finishRun(end: RunEnd, ending: RunEnding): Promise<void> {
  const { session, run, emitter } = end;
  // Children settle first: a parent never reports before the runs it is responsible for.
  await Promise.allSettled(run.allChildren().map((c) => c.handle.done));
  let result = resultOf(end, ending);
  try {
    emitter.closeOpenToolCalls(unfinishedCall(ending.status));
    const { agent: _agent, runId: _runId, threadId: _threadId, failedToolCalls: _failed, ...fields } = result;
    const written = emitter.finish({ kind: 'run.finished', ...fields });
    if (!written) {
      const why = `The run's end could not be written to its thread (${emitter.writeFailure ?? 'the store refused it'}).`;
      result = { ...result, status: 'error', error: result.error ? `${result.error} ${why}` : why };
    }
  } finally {
    emitter.close();
    end.slot?.close();
    end.detach();
    // The run's open of its thread ends: the lease goes once no run of this process holds it.
    session.store
      .close(run.threadId)
      .catch((error: unknown) => session.logger.error(`Could not close thread ${run.threadId}: ${errorText(error)}`));
    session.registry.remove(run);
    run.finish(result);
  }
}

function resultOf(end: RunEnd, ending: RunEnding): RunResult {
  const { run } = end;
  const durationMs = Math.max(0, end.session.clock.now() - end.startedAt);
  // What the run's own tokens cost by its model's price (subagents.prices); children priced their own.
  const usage = priceUsage(ending.usage, priceOf(run.modelSpec, end.session.settings.prices));
  // Tokens of the whole subtree: this run's own plus every child's total.
  let totalUsage = usage;
  for (const c of run.allChildren())
    if (c.handle.result) totalUsage = addUsage(totalUsage, c.handle.result.totalUsage ?? c.handle.result.usage);
  return {
    agent: run.agent,
    runId: run.runId,
    threadId: run.threadId,
    status: ending.status,
    output: ending.output,
    ...(ending.error === undefined ? {} : { error: ending.error }),
    ...(ending.bailed ? { bailed: true } : {}),
    usage,
    totalUsage,
    durationMs,
    ...(end.emitter.failedToolCalls ? { failedToolCalls: end.emitter.failedToolCalls } : {}),
  };
}

/** What a tool call still open at the run's end is told. */
function unfinishedCall(status: RunStatus): string {
  switch (status) {
    case 'cancelled':
      return 'Not finished: the run was cancelled.';
    case 'timeout':
      return 'Not finished: the run timed out.';
    default:
      return `Not finished: the run ended (${status}) before this call returned.`;
  }
}
