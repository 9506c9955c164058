/**
 * A new conversation's title, told apart from the conversations already there: the first line of
 * its first prompt, and " (2)", " (3)"… when a conversation with that title exists, so the thread
 * list and "Open Thread…" never show two rows that read the same.
 */
export function distinctTitle(base: string, taken: Iterable<string>): string {
  const titles = new Set(taken);
  if (!titles.has(base)) return base;
  for (let n = 2; ; n++) {
    const title = `${base} (${n})`;
    if (!titles.has(title)) return title;
  }
}
