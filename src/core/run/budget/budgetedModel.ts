import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4Usage } from '@ai-sdk/provider';
import type { Usage } from '../../../shared/events';
import { addUsage, ZERO_USAGE } from '../../../shared/usage';
import { usageOfCall } from '../../models/usage/callUsage';
import { wrapModel } from '../../models/wrapModel';
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
 * The run's model under its token budget: before each call it checks what is left. Nothing left
 * refuses the call (BudgetSpentError); otherwise the call asks for no more output than is left.
 * What calls use is charged by the meter (see usageMeter), from each stream's finish part.
 */
export function budgetedModel(model: LanguageModelV4, budget: TokenBudget): LanguageModelV4 {
  const within = (call: LanguageModelV4CallOptions): LanguageModelV4CallOptions => {
    const spent = budget.spent();
    if (spent) throw new BudgetSpentError(budgetSpentText(spent));
    const left = budget.left;
    if (!Number.isFinite(left)) return call;
    return { ...call, maxOutputTokens: Math.min(call.maxOutputTokens ?? left, left) };
  };
  return wrapModel(model, {
    doGenerate: (call) => model.doGenerate(within(call)),
    doStream: (call) => model.doStream(within(call)),
  });
}

/**
 * Charges a call's usage, as the provider reports it when the call finishes, to the run's budget
 * (and so to every budget above it), and reports the run's total so far. Fed by the one wrapper
 * that already reads every part of the stream, so the budget adds no stream of its own.
 */
export function usageMeter(budget: TokenBudget, onUsage: (runTotal: Usage) => void): (usage: LanguageModelV4Usage) => void {
  let total = ZERO_USAGE;
  return (usage) => {
    const u = usageOfCall(usage);
    total = addUsage(total, u);
    budget.charge(u.totalTokens);
    onUsage(total);
  };
}
