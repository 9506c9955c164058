/**
 * `subagents.allowedModels`: the models runs may use, as specs or globs in which `*` matches any
 * run of characters (slashes too, since specs hold URLs: `openai-compatible:http://localhost*`).
 * Empty allows every model. Matching ignores case, as provider and family names do.
 */

export function modelAllowed(spec: string, patterns: readonly string[]): boolean {
  if (patterns.length === 0) return true;
  return patterns.some((p) => specMatches(spec, p));
}

/** Whether a spec matches one pattern: a spec, or a glob in which `*` matches anything (case ignored). */
export function specMatches(spec: string, pattern: string): boolean {
  return globMatches(spec, pattern);
}

/** Why a run may not start on this model, and what to do, in one sentence. */
export function modelRefusedText(agent: string, spec: string, patterns: readonly string[]): string {
  return (
    `The "${agent}" agent would run on "${spec}", which "subagents.allowedModels" does not allow (allowed: ${patterns.map((p) => `"${p}"`).join(', ')}), so it was not started. ` +
    `Use an agent whose model is allowed, change the agent's "model", or add the model to the setting.`
  );
}

/**
 * `*` matches any run of characters. Matched by walking both strings, backing up only to the last
 * `*` (at most text × pattern steps): a pattern written as a regular expression, `*a*a*a…*b`,
 * backtracks exponentially, and these patterns come from settings a workspace may write.
 */
function globMatches(text: string, glob: string): boolean {
  const t = text.toLowerCase();
  const p = glob.trim().toLowerCase();
  let ti = 0;
  let pi = 0;
  let star = -1;
  let mark = 0;
  while (ti < t.length) {
    if (pi < p.length && p[pi] !== '*' && p[pi] === t[ti]) {
      ti++;
      pi++;
    } else if (pi < p.length && p[pi] === '*') {
      star = pi++;
      mark = ti;
    } else if (star >= 0) {
      pi = star + 1;
      ti = ++mark;
    } else {
      return false;
    }
  }
  while (pi < p.length && p[pi] === '*') pi++;
  return pi === p.length;
}
