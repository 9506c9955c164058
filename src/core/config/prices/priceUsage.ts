import type { Usage } from '../../../shared/events';
import type { ModelPrice } from './modelPrices';

/**
 * A run's own usage with what it cost, by the price of its model. Each kind of token is priced at
 * its own rate: cache reads and writes are part of the input count, so the input rate applies only
 * to the rest. A usage the price cannot fully cover (no price, or cached tokens and no cache rate)
 * gets no cost: its tokens are shown alone, never priced by guess.
 */
export function priceUsage(usage: Usage, price: ModelPrice | undefined): Usage {
  const { costUsd: _cost, unpricedTokens: _unpriced, ...tokens } = usage;
  const cost = price && costOf(tokens, price);
  return cost === undefined ? tokens : { ...tokens, costUsd: cost };
}

function costOf(u: Usage, price: ModelPrice): number | undefined {
  const read = u.cacheReadTokens ?? 0;
  const write = u.cacheWriteTokens ?? 0;
  if (read > 0 && price.cacheRead === undefined) return undefined;
  if (write > 0 && price.cacheWrite === undefined) return undefined;
  const fresh = Math.max(0, u.inputTokens - read - write);
  const dollarsPerMillion =
    fresh * price.input + read * (price.cacheRead ?? 0) + write * (price.cacheWrite ?? 0) + u.outputTokens * price.output;
  return dollarsPerMillion / 1_000_000;
}
