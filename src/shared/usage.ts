import type { Usage } from './events';

// Kept apart from events.ts so the webview can use these without pulling zod into its bundle.

export const ZERO_USAGE: Usage = Object.freeze({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });

/**
 * Two usages together. The optional parts stay absent unless one side has them, so a usage without
 * cache or price reads as it always did. A cost is a sum of known costs: tokens without a price are
 * counted in `unpricedTokens`, never priced by guess.
 */
export function addUsage(a: Usage, b: Usage): Usage {
  const sum: Usage = {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
  addOptional(sum, 'cacheReadTokens', a.cacheReadTokens, b.cacheReadTokens);
  addOptional(sum, 'cacheWriteTokens', a.cacheWriteTokens, b.cacheWriteTokens);
  if (a.costUsd === undefined && b.costUsd === undefined) return sum;
  addOptional(sum, 'costUsd', a.costUsd, b.costUsd);
  addOptional(sum, 'unpricedTokens', unpriced(a), unpriced(b));
  return sum;
}

type OptionalPart = 'cacheReadTokens' | 'cacheWriteTokens' | 'costUsd' | 'unpricedTokens';

function addOptional(sum: Usage, key: OptionalPart, a: number | undefined, b: number | undefined): void {
  if (a === undefined && b === undefined) return;
  const total = (a ?? 0) + (b ?? 0);
  if (key === 'costUsd' || total > 0) sum[key] = total;
}

/** The tokens of a usage that no price covers: all of them when it has tokens and no cost. */
function unpriced(u: Usage): number | undefined {
  if (u.unpricedTokens !== undefined) return u.unpricedTokens;
  if (u.costUsd === undefined && u.totalTokens > 0) return u.totalTokens;
  return undefined;
}

/**
 * "1.2s · 340 in / 56 out": the stats line shown in the tree, the CLI and announce messages.
 * `exact` writes every count in full, for the run tree as text (a record, not a glance).
 */
export function formatStats(durationMs: number, usage: Usage, exact = false): string {
  const time = durationMs < 1000 ? `${Math.round(durationMs)}ms` : `${(durationMs / 1000).toFixed(1)}s`;
  return `${time} · ${formatUsage(usage, exact)}`;
}

/**
 * "12.1k in, 9.8k cached / 310 out · $0.042": tokens in (and how many of them the provider's cache
 * served or took), tokens out, and what they cost when subagents.prices prices them. A cost that
 * leaves out tokens of unpriced models is shown as the least it was ("≥ $0.042").
 */
export function formatUsage(usage: Usage, exact = false): string {
  const count = exact ? String : compactCount;
  const cache = [
    usage.cacheReadTokens ? `, ${count(usage.cacheReadTokens)} cached` : '',
    usage.cacheWriteTokens ? `, ${count(usage.cacheWriteTokens)} to cache` : '',
  ].join('');
  const cost = formatCost(usage);
  return `${count(usage.inputTokens)} in${cache} / ${count(usage.outputTokens)} out${cost ? ` · ${cost}` : ''}`;
}

/** "$0.042", "≥ $1.20" when some tokens had no price, or '' when none had one (tokens only, no guess). */
export function formatCost(usage: Usage): string {
  if (usage.costUsd === undefined) return '';
  const money = formatUsd(usage.costUsd);
  return usage.unpricedTokens ? `≥ ${money}` : money;
}

/** "$0", "$0.0031", "$0.042", "$1.20". */
export function formatUsd(usd: number): string {
  if (usd === 0) return '$0';
  if (usd >= 1) return `$${usd.toFixed(2)}`;
  return `$${Number(usd.toPrecision(2))}`;
}

/** "340", "12.1k", "123k", "1.2M": a count in a line that must stay short. */
export function compactCount(n: number): string {
  if (n < 1000) return `${n}`;
  if (n < 100_000) return `${(n / 1000).toFixed(1)}k`;
  if (n < 1_000_000) return `${Math.round(n / 1000)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** "0.4s", "2.3s", "42s", "3m 05s": elapsed time in a line that must stay short. */
export function formatDuration(ms: number): string {
  if (ms < 10_000) return `${(Math.max(0, ms) / 1000).toFixed(1)}s`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
}

/** "120 tok", "1.2k tok", "34k tok", "1.2M tok". */
export function formatTokens(tokens: number): string {
  if (tokens < 1000) return `${tokens} tok`;
  if (tokens < 10_000) return `${(tokens / 1000).toFixed(1)}k tok`;
  if (tokens < 1_000_000) return `${Math.round(tokens / 1000)}k tok`;
  return `${(tokens / 1_000_000).toFixed(1)}M tok`;
}
