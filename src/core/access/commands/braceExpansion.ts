/**
 * Bash's brace expansion, done before the judge looks at a word: `{.vscode/settings.json,}` is two
 * words, `.vscode/settings.json` and nothing, and `f{1..3}` is three. Works on characters that
 * remember whether they were quoted, since `'{a,b}'` does not expand.
 */

export interface QChar {
  c: string;
  quoted: boolean;
}

/** Past this many words a brace expression is not expanded for judging: the word counts as unknown. */
export const MAX_BRACE_WORDS = 512;

export class TooManyWords extends Error {}

export function expandBraces(word: readonly QChar[]): QChar[][] {
  const out: QChar[][] = [];
  const pending: QChar[][] = [[...word]];
  while (pending.length > 0) {
    const current = pending.pop()!;
    const found = firstBraceGroup(current);
    if (!found) {
      out.push(current);
      if (out.length > MAX_BRACE_WORDS) throw new TooManyWords();
      continue;
    }
    const prefix = current.slice(0, found.open);
    const suffix = current.slice(found.close + 1);
    const alternatives = found.alternatives;
    // Reversed onto the stack so the words come out in bash's order.
    for (let i = alternatives.length - 1; i >= 0; i--) pending.push([...prefix, ...alternatives[i]!, ...suffix]);
    if (pending.length + out.length > MAX_BRACE_WORDS) throw new TooManyWords();
  }
  return out;
}

interface BraceGroup {
  open: number;
  close: number;
  alternatives: QChar[][];
}

/** The leftmost `{…}` that bash would expand: a comma at its top level, or a sequence `a..b[..n]`. */
function firstBraceGroup(word: readonly QChar[]): BraceGroup | undefined {
  for (let open = 0; open < word.length; open++) {
    if (!isUnquoted(word[open], '{')) continue;
    // `${` is a parameter expansion, not a brace.
    if (open > 0 && isUnquoted(word[open - 1], '$')) continue;
    let depth = 0;
    const commas: number[] = [];
    for (let i = open + 1; i < word.length; i++) {
      if (isUnquoted(word[i], '{')) depth++;
      else if (isUnquoted(word[i], '}')) {
        if (depth > 0) {
          depth--;
          continue;
        }
        const inner = word.slice(open + 1, i);
        if (commas.length > 0) {
          const alternatives: QChar[][] = [];
          let from = open + 1;
          for (const comma of [...commas, i]) {
            alternatives.push(word.slice(from, comma));
            from = comma + 1;
          }
          return { open, close: i, alternatives };
        }
        const sequence = sequenceOf(inner);
        if (sequence) return { open, close: i, alternatives: sequence.map((s) => [...s].map((c) => ({ c, quoted: false }))) };
        break;
      } else if (depth === 0 && isUnquoted(word[i], ',')) commas.push(i);
    }
  }
  return undefined;
}

function isUnquoted(ch: QChar | undefined, c: string): boolean {
  return ch !== undefined && !ch.quoted && ch.c === c;
}

/** `1..5`, `05..10..2`, `a..e`: the words of a sequence expression, or undefined if it is not one. */
function sequenceOf(inner: readonly QChar[]): string[] | undefined {
  if (inner.some((ch) => ch.quoted)) return undefined;
  const text = inner.map((ch) => ch.c).join('');
  const numeric = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(text);
  if (numeric) {
    const [from, to] = [Number(numeric[1]), Number(numeric[2])];
    const step = Math.abs(Number(numeric[3] ?? 1)) || 1;
    if (Math.abs(to - from) / step > MAX_BRACE_WORDS) throw new TooManyWords();
    const width = /^-?0\d/.test(numeric[1]!) || /^-?0\d/.test(numeric[2]!) ? Math.max(numeric[1]!.length, numeric[2]!.length) : 0;
    const words: string[] = [];
    for (let n = from; from <= to ? n <= to : n >= to; n += from <= to ? step : -step) {
      const digits = String(Math.abs(n)).padStart(width - (n < 0 ? 1 : 0), '0');
      words.push(n < 0 ? `-${digits}` : digits);
    }
    return words;
  }
  const letters = /^([A-Za-z])\.\.([A-Za-z])(?:\.\.(-?\d+))?$/.exec(text);
  if (letters) {
    const [from, to] = [letters[1]!.charCodeAt(0), letters[2]!.charCodeAt(0)];
    const step = Math.abs(Number(letters[3] ?? 1)) || 1;
    const words: string[] = [];
    for (let n = from; from <= to ? n <= to : n >= to; n += from <= to ? step : -step) words.push(String.fromCharCode(n));
    return words;
  }
  return undefined;
}
