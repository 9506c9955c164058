/**
 * Whether ripgrep may be trusted to find every line a JavaScript regular expression (flags `u`,
 * optionally `i`, tested line by line) matches, so it can pick the files the JavaScript matcher
 * then reads. Conservative: anything whose meaning differs between the two engines, or that Rust's
 * regex lacks, answers false and the search walks the workspace itself.
 * - lookaround, backreferences, named groups: JavaScript only;
 * - `\b \B \s \S \W \D`: ASCII word boundaries and JavaScript's own set of spaces would let ripgrep
 *   miss lines (`\w` and `\d` are safe: ripgrep's Unicode sets hold the ASCII ones);
 * - `\p \P \u \c \k \0`, nested classes, `[:alpha:]` and class set operations (`&&`, `--`, `~~`),
 *   which ripgrep reads differently.
 */
export function ripgrepCanPrefilter(pattern: string): boolean {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const next = pattern[++i];
      if (next === undefined || /[bBsSWDpPuckK0-9]/.test(next)) return false;
      continue;
    }
    if (inClass) {
      if (c === '[') return false;
      if (c === ']') inClass = false;
      else if ((c === '&' || c === '-' || c === '~') && pattern[i + 1] === c) return false;
      continue;
    }
    if (c === '[') {
      inClass = true;
      if (pattern[i + 1] === '^') i++;
      // A `]` first in the class is a literal in ripgrep and ends an empty class in JavaScript.
      if (pattern[i + 1] === ']') return false;
    } else if (c === '(' && pattern[i + 1] === '?' && pattern[i + 2] !== ':') return false;
  }
  return true;
}
