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
  return globRegex(pattern).test(spec);
}

/** Why a run may not start on this model, and what to do, in one sentence. */
export function modelRefusedText(agent: string, spec: string, patterns: readonly string[]): string {
  return (
    `The "${agent}" agent would run on "${spec}", which "subagents.allowedModels" does not allow (allowed: ${patterns.map((p) => `"${p}"`).join(', ')}), so it was not started. ` +
    `Use an agent whose model is allowed, change the agent's "model", or add the model to the setting.`
  );
}

const cache = new Map<string, RegExp>();

function globRegex(pattern: string): RegExp {
  let re = cache.get(pattern);
  if (!re) {
    const body = pattern
      .trim()
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*');
    cache.set(pattern, (re = new RegExp(`^${body}$`, 'i')));
  }
  return re;
}
