/**
 * Claude Code's matchers: absent, "" or "*" match every one; letters, digits, `_` and `|` alone are
 * exact names (`Edit|Write`); anything else is a regular expression (`Notebook.*`, `mcp__github__.*`).
 * A matcher is tested against every name a tool answers to (Claude Code's and ours).
 *
 * A repository's matcher is someone else's regular expression run in this process, where nothing
 * can stop a catastrophic one: a group that repeats and holds a repetition or an alternation (`(a+)+`,
 * `(a|a)*`), or a back-reference, is refused with a problem; names are at most 128 characters.
 */

export type ToolMatcher = (names: readonly string[]) => boolean;

const MAX_MATCHER = 300;
const MAX_NAME = 128;

/** The matcher as a predicate, or why it is refused. */
export function compileMatcher(matcher: string | undefined): { match: ToolMatcher } | { problem: string } {
  const m = matcher?.trim() ?? '';
  if (m === '' || m === '*') return { match: () => true };
  if (m.length > MAX_MATCHER) return { problem: `the matcher is longer than ${MAX_MATCHER} characters` };
  if (/^[\w|]+$/.test(m)) {
    const names = new Set(m.split('|').filter(Boolean));
    return { match: (candidates) => candidates.some((c) => names.has(c)) };
  }
  const unsafe = unsafeRegex(m);
  if (unsafe) return { problem: `the matcher "${m}" ${unsafe}; write names joined by | or a simpler pattern` };
  let regex: RegExp;
  try {
    regex = new RegExp(m);
  } catch (error) {
    return { problem: `the matcher "${m}" is not a regular expression (${error instanceof Error ? error.message : String(error)})` };
  }
  return { match: (candidates) => candidates.some((c) => regex.test(c.slice(0, MAX_NAME))) };
}

/** Why a pattern could take exponential time, or undefined. */
function unsafeRegex(pattern: string): string | undefined {
  if (/\\[1-9]|\\k</.test(pattern)) return 'uses a back-reference';
  // Each group's content, innermost first: a quantified group must hold no quantifier and no alternation.
  const stack: number[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '[') {
      // A class is one character: skip to its end.
      for (i++; i < pattern.length && pattern[i] !== ']'; i++) if (pattern[i] === '\\') i++;
      continue;
    }
    if (c === '(') stack.push(i);
    else if (c === ')') {
      const start = stack.pop();
      if (start === undefined) continue;
      const next = pattern[i + 1];
      const quantified = next === '*' || next === '+' || next === '{' || next === '?';
      const inner = pattern
        .slice(start + 1, i)
        .replace(/\\./g, '')
        .replace(/\[[^\]]*\]/g, 'x');
      if (quantified && next !== '?' && /[*+{|]|\?(?!:|=|!|<)/.test(inner.replace(/^\?(:|=|!|<[=!]?)/, '')))
        return 'repeats a group that holds a repetition or an alternation (it could take exponential time)';
    }
  }
  return undefined;
}
