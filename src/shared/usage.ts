import type { Usage } from './events';

// Kept apart from events.ts so the webview can use these without pulling zod into its bundle.

export const ZERO_USAGE: Usage = Object.freeze({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
}

/** "1.2s · 340 in / 56 out": the stats line shown in the tree, the CLI and announce messages. */
export function formatStats(durationMs: number, usage: Usage): string {
  const time = durationMs < 1000 ? `${Math.round(durationMs)}ms` : `${(durationMs / 1000).toFixed(1)}s`;
  return `${time} · ${usage.inputTokens} in / ${usage.outputTokens} out`;
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
