import type { Profile } from '../profiles/profile';

/** Models write names loosely ("Code Reviewer", "@reviewer", "code_reviewer"): compare a normal form. */
export function normalizeAgentName(name: string): string {
  return name.trim().replace(/^@/, '').toLowerCase().replace(/[\s_]+/g, '-');
}

export interface MatchedAgents {
  matched: Profile[];
  unknown: string[];
  duplicates: string[];
}

/** Matches requested names against the allowed profiles, in request order, each profile once. */
export function matchAgents(requested: readonly string[], allowed: readonly Profile[]): MatchedAgents {
  const byName = new Map(allowed.map((p) => [p.name, p]));
  const out: MatchedAgents = { matched: [], unknown: [], duplicates: [] };
  const seen = new Set<string>();
  for (const raw of requested) {
    const profile = byName.get(normalizeAgentName(raw));
    if (!profile) out.unknown.push(raw);
    else if (seen.has(profile.name)) out.duplicates.push(raw);
    else {
      seen.add(profile.name);
      out.matched.push(profile);
    }
  }
  return out;
}

export function describeAgents(agents: readonly Profile[]): string {
  return agents.length ? agents.map((a) => `${a.name} (${a.description})`).join('; ') : '(none)';
}
