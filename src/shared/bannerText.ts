/**
 * A banner's message as its one line and the rest: the first sentence leads, what follows opens
 * under "Details". A sentence ends at `.`, `!` or `?` before a space and a capital, a quote, `@`
 * or a bracket, so a path (`.vscode/settings.json`) or a version (`1.2`) does not end one.
 */
export function bannerParts(message: string): { line: string; rest: string } {
  const text = message.replace(/\s+/g, ' ').trim();
  const end = /[.!?](?=\s+["'“(@`[A-Z])/.exec(text);
  if (!end) return { line: text, rest: '' };
  return { line: text.slice(0, end.index + 1), rest: text.slice(end.index + 1).trim() };
}

/** Longer than this, a banner's one line is cut on screen: its "Details" shows it whole. */
export const BANNER_LINE_CHARS = 90;
