import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4StreamPart, LanguageModelV4Usage } from '@ai-sdk/provider';
import type { Usage } from '../../shared/events';
import { addUsage, ZERO_USAGE } from '../../shared/usage';
import { wrapModel } from '../models/wrapModel';
import { tokens, type SpentLimit, type TokenBudget } from './tokenBudget';

/** A model call refused because a token budget on the run's chain is used up. Never retried. */
export class BudgetSpentError extends Error {
  override readonly name = 'BudgetSpentError';
}

/** "Stopped at its token budget: …": why a run ended with status `budget`. */
export function budgetSpentText(spent: SpentLimit): string {
  return `Stopped at its token budget: ${tokens(spent.used)} of ${tokens(spent.limit.value)} tokens used (${spent.limit.source}). The output is what it had done by then.`;
}

/**
 * The run's model under its token budget. Before each call it checks what is left: nothing left
 * refuses the call (BudgetSpentError); otherwise the call asks for no more output than is left.
 * Each call's usage, as the provider reports it when the call finishes, is charged to the budget
 * (and so to every budget above it), and the run's total so far is reported.
 */
export function budgetedModel(model: LanguageModelV4, budget: TokenBudget, onUsage: (runTotal: Usage) => void): LanguageModelV4 {
  let total = ZERO_USAGE;
  const charge = (usage: LanguageModelV4Usage) => {
    const u = toUsage(usage);
    total = addUsage(total, u);
    budget.charge(u.totalTokens);
    onUsage(total);
  };
  const within = (call: LanguageModelV4CallOptions): LanguageModelV4CallOptions => {
    const spent = budget.spent();
    if (spent) throw new BudgetSpentError(budgetSpentText(spent));
    const left = budget.left;
    if (!Number.isFinite(left)) return call;
    return { ...call, maxOutputTokens: Math.min(call.maxOutputTokens ?? left, left) };
  };
  return wrapModel(model, {
    doGenerate: async (call) => {
      const result = await model.doGenerate(within(call));
      charge(result.usage);
      return result;
    },
    doStream: async (call) => {
      const result = await model.doStream(within(call));
      const stream = result.stream.pipeThrough(
        new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
          transform(part, controller) {
            if (part.type === 'finish') charge(part.usage);
            controller.enqueue(part);
          },
        }),
      );
      return { ...result, stream };
    },
  });
}

function toUsage(u: LanguageModelV4Usage): Usage {
  const inputTokens = finite(u.inputTokens.total);
  const outputTokens = finite(u.outputTokens.total);
  return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
}

const finite = (n: number | undefined): number => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : 0);
