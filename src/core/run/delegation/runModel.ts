import type { LanguageModelV4 } from '@ai-sdk/provider';
import { priceOf } from '../../config/prices/modelPrices';
import { withPromptCacheMarks } from '../../models/promptCache/promptCacheMarks';
import { priceUsage } from '../../config/prices/priceUsage';
import type { EmitRunEvent } from '../../runEvents';
import { budgetedModel, usageMeter } from '../budget/budgetedModel';
import { idleTimeoutModel } from '../liveness/idleTimeoutModel';
import { StallWatch, stallText } from '../liveness/stallWatch';
import type { RunEmitter } from './runEmitter';
import type { RunHandle } from './runHandle';
import type { Session } from './session';

export interface RunModel {
  /** The model every call of the run goes through. */
  model: LanguageModelV4;
  /** The run's emitter, counting each event as a sign of life. */
  emit: EmitRunEvent;
  /** The run's work is done: nothing more is watched. */
  stop(): void;
}

/**
 * The run's model as every run gets it: under its token budget (refused when it is used up, each
 * call's output capped to what is left), with an idle timeout on its stream, watched for stalls (a
 * warning when an open call and the run have been silent), and each call's usage charged to the
 * budget and reported as it finishes. One wrapper reads the stream for all of them.
 */
export function runModel(session: Session, run: RunHandle, emitter: RunEmitter, resolved: LanguageModelV4): RunModel {
  const { settings, schedule, clock } = session;
  const watch = new StallWatch(settings.stallWarningMs, clock, schedule, (ms) =>
    emitter.emit({ kind: 'warning', code: 'stall', message: stallText(ms, settings.modelIdleTimeoutMs) }),
  );
  const emit: EmitRunEvent = (body) => {
    watch.touch();
    emitter.emit(body);
  };
  const price = priceOf(run.modelSpec, settings.prices);
  const charge = usageMeter(run.budget, (usage) => emit({ kind: 'run.usage', usage: priceUsage(usage, price) }));
  // Marked for the prompt cache below the retries, so a compacted prompt is marked as it is sent.
  const cached = settings.promptCaching ? withPromptCacheMarks(resolved) : resolved;
  const model = idleTimeoutModel(budgetedModel(cached, run.budget), {
    idleTimeoutMs: settings.modelIdleTimeoutMs,
    clock,
    schedule,
    watch,
    onRetry: (notice) => emit({ kind: 'run.retrying', ...notice }),
    onPart: (part) => part.type === 'finish' && charge(part.usage),
  });
  return { model, emit, stop: () => watch.stop() };
}
