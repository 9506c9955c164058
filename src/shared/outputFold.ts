/**
 * Long tool output folded in the panel: a file's text, a command's output or a list of matches
 * longer than FOLD_AT lines shows its first (or, for a command, last) lines and a button that
 * says how much there is ("120 lines, show all", "51 matches, show all"). Long work stays calm
 * to scroll past; the whole output is one press away.
 */

/** The most lines (or list items) shown before the rest is folded. */
export const FOLD_AT = 20;

export interface FoldedText {
  /** The lines shown while folded, joined. */
  shown: string;
  /** How many lines the whole text has. */
  total: number;
}

/** The text's lines as the panel counts them: a final newline ends the last line, it starts no new one. */
function splitLines(text: string): string[] {
  return text.replace(/\n$/, '').split('\n');
}

/**
 * The text folded to its first FOLD_AT lines (`keep: 'last'`: its last ones, where a command's
 * verdict is); undefined when it is short enough to show whole.
 */
export function foldText(text: string, keep: 'first' | 'last' = 'first'): FoldedText | undefined {
  const lines = splitLines(text);
  if (lines.length <= FOLD_AT) return undefined;
  const shown = keep === 'first' ? lines.slice(0, FOLD_AT) : lines.slice(-FOLD_AT);
  return { shown: shown.join('\n'), total: lines.length };
}

/** How many items a list shows while folded; all of them when it is short. */
export function foldedItemCount(total: number): number {
  return total > FOLD_AT ? FOLD_AT : total;
}

/** The fold button's words: "120 lines, show all", "51 matches, show all" (a folded count is never one). */
export function showAllLabel(total: number, noun: string): string {
  return `${total} ${noun.toLowerCase()}, show all`;
}
