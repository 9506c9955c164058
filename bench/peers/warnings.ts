// What the frameworks print while they are timed (ai@6 warns on every call VoltAgent makes, say):
// counted per column instead of printed, since printing would be timed too, and listed at the end.

export interface WarningLog {
  /** The column whose runs come next. */
  column(name: string): void;
  /** One line per distinct warning: which column, how often, what. */
  lines(): string[];
}

export function collectWarnings(): WarningLog {
  const counts = new Map<string, number>();
  let current = 'setup';
  const note = (text: string): void => {
    const key = `${current}: ${text}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  };
  console.warn = (...args: unknown[]) => note(args.map(String).join(' '));
  process.removeAllListeners('warning');
  process.on('warning', (warning) => note(`${warning.name}: ${warning.message}`));
  return {
    column: (name) => void (current = name),
    lines: () => [...counts].map(([text, n]) => `  ${n} x ${text}`),
  };
}
