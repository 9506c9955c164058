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

/** A plain-text table with a header rule; columns padded to their widest cell. */
export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  const line = (r: string[]): string => r.map((cell, c) => cell.padEnd(widths[c]!)).join('  ').trimEnd();
  return [line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}
