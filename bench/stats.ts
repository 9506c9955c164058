/** Median, min and max of a sample, in the sample's unit. */
export interface Summary {
  median: number;
  min: number;
  max: number;
}

export function summarize(samples: number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, min: sorted[0]!, max: sorted.at(-1)! };
}

export function formatMs(s: Summary): string {
  const f = (ms: number): string => (ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0));
  return `${f(s.median)} ms (${f(s.min)}–${f(s.max)})`;
}

/**
 * The median of the rounds' own ratios of `samples` to `floor` (the same round's runs, index by
 * index) with its 95 % interval: `1.06 x (1.03–1.09)`. A round runs every column once, back to
 * back, so its ratio is less touched by the machine's drift than a ratio of two medians.
 */
export function roundRatio(samples: number[], floor: number[]): string {
  const ratios = samples.map((ms, round) => ms / floor[round]!);
  const { low, high } = medianInterval(ratios);
  return `${summarize(ratios).median.toFixed(2)} x (${low.toFixed(2)}–${high.toFixed(2)})`;
}

/** Kilobytes as a median with its range: `219 KB (131–541)`. */
export function formatKB(s: Summary): string {
  return `${Math.round(s.median)} KB (${s.min}–${s.max})`;
}

/** A plain-text table with a header rule; columns padded to their widest cell. */
export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  const line = (r: string[]): string =>
    r
      .map((cell, c) => cell.padEnd(widths[c]!))
      .join('  ')
      .trimEnd();
  return [line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

/**
 * A 95 % confidence interval for the median of the population a sample comes from: two of the
 * sample's own order statistics (ranks n/2 ∓ 0.98·√n, the binomial's normal approximation), so it
 * assumes nothing of the distribution's shape. For 60 samples, the 22nd and the 39th smallest.
 */
export function medianInterval(samples: number[]): { low: number; high: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const n = sorted.length;
  const spread = (1.96 * Math.sqrt(n)) / 2;
  const lowRank = Math.max(1, Math.floor(n / 2 - spread));
  const highRank = Math.min(n, Math.ceil(1 + n / 2 + spread));
  return { low: sorted[lowRank - 1]!, high: sorted[highRank - 1]! };
}
