import type { RunLimit } from '../../../shared/events';

/** The share of a limit at which its run is warned, once. */
export const WARNING_SHARE = 0.8;

/** A limit that is used up: which one, and how much of it went. */
export interface SpentLimit {
  limit: RunLimit;
  used: number;
}

/**
 * Tokens (input plus output, as providers count them) counted against a chain of limits: a run's
 * own, its parent's, up to the request's. What a run uses counts against every budget above it,
 * so a profile's `maxTokens` covers its whole subtree and `subagents.budget.maxTokens` the whole
 * request; what a run has left is the least any budget on its chain has left.
 */
export class TokenBudget {
  private usedTokens = 0;
  private warned = false;

  /**
   * @param limit this budget's own limit; none: it only passes what it is charged upwards.
   * @param onWarning told once, when what was used first reaches 80 % of `limit`.
   */
  constructor(
    readonly parent: TokenBudget | undefined,
    readonly limit: RunLimit | undefined,
    private readonly onWarning?: (used: number, limit: RunLimit) => void,
  ) {}

  /** Tokens used under this budget: its run's and every run's below it. */
  get used(): number {
    return this.usedTokens;
  }

  /** Tokens left before the tightest limit on the chain is reached; Infinity when there is none. */
  get left(): number {
    let left = Infinity;
    for (const b of this.chain()) if (b.limit) left = Math.min(left, b.limit.value - b.usedTokens);
    return Math.max(0, left);
  }

  /** The nearest limit on the chain that is used up, if any. */
  spent(): SpentLimit | undefined {
    for (const b of this.chain()) if (b.limit && b.usedTokens >= b.limit.value) return { limit: b.limit, used: b.usedTokens };
    return undefined;
  }

  /** Counts a model call's tokens against this budget and every budget above it. */
  charge(tokens: number): void {
    if (!(tokens > 0)) return;
    for (const b of this.chain()) b.add(tokens);
  }

  /** This budget, then each one above it. */
  private *chain(): Generator<TokenBudget> {
    yield this;
    if (this.parent) yield* this.parent.chain();
  }

  private add(tokens: number): void {
    this.usedTokens += tokens;
    if (this.limit && !this.warned && this.usedTokens >= WARNING_SHARE * this.limit.value) {
      this.warned = true;
      this.onWarning?.(this.usedTokens, this.limit);
    }
  }
}

/** "12,345": token counts as people read them. */
export function tokens(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** The warning a run gets once, at 80 % of one of its limits (or past all of it, in one call). */
export function budgetWarningText(used: number, limit: { value: number; source: string }): string {
  const counts = `${tokens(used)} of ${tokens(limit.value)} tokens (${limit.source})`;
  if (used >= limit.value)
    return `The token budget is used up: ${counts}. The run makes no further model call and hands back what it has done.`;
  return `${Math.floor((100 * used) / limit.value)} % of the token budget is used: ${counts}. At the limit the run stops and hands back what it has done.`;
}
