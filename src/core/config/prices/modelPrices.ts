import { z } from 'zod';
import { specMatches } from '../../models/allowedModels';

// Capped so that no count of tokens makes a cost past what a number holds (a thread with an
// infinite cost in it would not load again).
const dollarsPerMillion = z.number().nonnegative().max(1_000_000);

/** What a model's tokens cost, in US dollars per million tokens. */
export const modelPriceSchema = z.strictObject({
  /** Input tokens the cache did not serve. */
  input: dollarsPerMillion,
  output: dollarsPerMillion,
  /** Input tokens read from the prompt cache; without it, a call that read any has no price. */
  cacheRead: dollarsPerMillion.optional(),
  /** Input tokens written to the prompt cache; without it, a call that wrote any has no price. */
  cacheWrite: dollarsPerMillion.optional(),
});
export type ModelPrice = z.infer<typeof modelPriceSchema>;

/** `subagents.prices`: model specs or globs (`anthropic:claude-*`) to their prices. */
export const modelPricesSchema = z.record(z.string().trim().min(1), modelPriceSchema);
export type ModelPrices = z.infer<typeof modelPricesSchema>;

/**
 * The price of a run's model spec (after aliases and lists): the entry that names it exactly, else
 * the matching glob with the most characters besides `*` (the most specific), the first written on
 * a tie; undefined when none matches, and the run's tokens are then shown without a cost.
 */
export function priceOf(spec: string, prices: ModelPrices): ModelPrice | undefined {
  const exact = prices[spec];
  if (exact) return exact;
  let best: { price: ModelPrice; weight: number } | undefined;
  for (const [pattern, price] of Object.entries(prices)) {
    if (!specMatches(spec, pattern)) continue;
    // A pattern without `*` names the spec (in other case): it beats a glob as long as itself.
    const weight = pattern.replaceAll('*', '').length + (pattern.includes('*') ? 0 : 0.5);
    if (!best || weight > best.weight) best = { price, weight };
  }
  return best?.price;
}
