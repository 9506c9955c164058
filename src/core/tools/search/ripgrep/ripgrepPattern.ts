/**
 * Bytes that a UTF-8 decoder turns into one U+FFFD: a maximal ill-formed subsequence (WHATWG, as
 * node's decoder reads files) is one to three bytes, each 0x80 or above.
 */
const ILL_FORMED = '(?-u:[\\x80-\\xFF]{1,3})';
/** A UTF-8 byte-order mark, which the JavaScript matcher drops from the start of a file. */
const BOM = '(?-u:\\xEF\\xBB\\xBF)?';

/**
 * The pattern for ripgrep that finds every line a JavaScript regular expression (flags `u`,
 * optionally `i`, tested line by line on the file as node decodes it) matches, so that ripgrep can
 * pick the files the JavaScript matcher then reads; undefined when ripgrep cannot be trusted to
 * (the search walks the workspace itself). It may find more; it must never find less.
 *
 * Ripgrep reads raw bytes (`--encoding none`); the matcher reads text in which each ill-formed
 * byte sequence is U+FFFD and a leading byte-order mark is gone. So what can match U+FFFD (`.`, a
 * negated class, a class with non-ASCII in it, U+FFFD itself) also takes ill-formed bytes, and `^`
 * may follow a byte-order mark, and `$` is dropped (a long line is tested in part). Declined, as ripgrep reads them differently or not at all:
 * - lookaround, backreferences, named groups: JavaScript only;
 * - `\b \B \s \S \W \D`: ASCII word boundaries and JavaScript's own set of spaces would let ripgrep
 *   miss lines (`\w` and `\d` are safe: ripgrep's Unicode sets hold the ASCII ones);
 * - `\p \P \u \c \k \0`, nested classes, `[:alpha:]` and class set operations (`&&`, `--`, `~~`);
 * - a pattern JavaScript itself refuses (the walker's matcher says why, in words).
 */
export function ripgrepPattern(pattern: string): string | undefined {
  try {
    new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const escape = translatedEscape(pattern[++i]!);
      if (escape === undefined) return undefined;
      out += escape;
    } else if (c === '[') {
      const set = translatedClass(pattern, i);
      if (!set) return undefined;
      out += set.text.startsWith('[^') || /[^\x00-\x7f]/.test(set.text) ? `(?:${set.text}|${ILL_FORMED})` : set.text;
      i = set.end;
    } else if (c === '(' && pattern[i + 1] === '?' && pattern[i + 2] !== ':') return undefined;
    else if (c === '.') out += `(?:.|${ILL_FORMED})`;
    else if (c === '\uFFFD') out += `(?:\uFFFD|${ILL_FORMED})`;
    else if (c === '^') out += `^${BOM}`;
    // The matcher tests only a long line's first characters, so `$` also holds where they end, which ripgrep cannot
    // place (it counts bytes, not UTF-16 units): without the assertion the pattern finds those lines too, and more.
    else if (c === '$') continue;
    else out += c;
  }
  return out;
}

/** The escape `\x` (x is `next`) for ripgrep, or undefined for an escape it reads differently. */
function translatedEscape(next: string): string | undefined {
  if (/[bBsSWDpPuckK0-9]/.test(next)) return undefined;
  // JavaScript escapes `/` out of habit; ripgrep refuses the escape, and `/` is no operator to it.
  return next === '/' ? '/' : `\\${next}`;
}

/** The class opened at `start`, for ripgrep, and where it closes; undefined for a class ripgrep would read differently. */
function translatedClass(pattern: string, start: number): { text: string; end: number } | undefined {
  let i = start + 1;
  let text = '[';
  if (pattern[i] === '^') {
    text += '^';
    i++;
  }
  // A `]` first in the class is a literal in ripgrep and ends an empty class in JavaScript.
  if (pattern[i] === ']') return undefined;
  for (; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const escape = translatedEscape(pattern[++i]!);
      if (escape === undefined) return undefined;
      text += escape;
    } else if (c === '[') return undefined;
    else if (c === ']') return { text: `${text}]`, end: i };
    else if ((c === '&' || c === '-' || c === '~') && pattern[i + 1] === c) return undefined;
    else text += c;
  }
  return undefined;
}
