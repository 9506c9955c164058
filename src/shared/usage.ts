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
