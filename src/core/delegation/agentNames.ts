import type { Profile } from '../profiles/profile';
import type { DelegationDeps } from './startChild';

/** Models write names loosely ("Code Reviewer", "@reviewer", "code_reviewer"): compare a normal form. */
export function normalizeAgentName(name: string): string {
  return name.trim().replace(/^@/, '').toLowerCase().replace(/[\s_]+/g, '-');
}

export function describeAgents(agents: readonly Profile[]): string {
  return agents.length ? agents.map((a) => `${a.name} (${a.description})`).join('; ') : '(none)';
}

/**
 * The profiles for the requested names, in request order and each once. Unknown names and names
 * already on the caller's path are warned about and skipped; none left is an error result that
 * lists the available agents.
 */
export function resolveAgents(deps: DelegationDeps, requested: readonly string[]): { profiles: Profile[] } | { error: string } {
  const { delegates, caller, emit } = deps;
  if (requested.length === 0) return { error: `Name at least one agent in "agents". Available agents: ${describeAgents(delegates)}.` };
  const byName = new Map(delegates.map((p) => [p.name, p]));
  const profiles: Profile[] = [];
  const unknown: string[] = [];
  const onPath: string[] = [];
  for (const raw of requested) {
    const name = normalizeAgentName(raw);
    const profile = byName.get(name);
    if (profile) {
      if (!profiles.includes(profile)) profiles.push(profile);
    } else if (caller.agentPath.includes(name)) onPath.push(name);
    else unknown.push(raw);
  }
  if (unknown.length > 0) {
    emit({ kind: 'warning', message: `Skipped unknown agent${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${n}"`).join(', ')}; available: ${delegates.map((d) => d.name).join(', ') || '(none)'}.` });
  }
  if (onPath.length > 0) {
    emit({ kind: 'warning', message: `Skipped ${onPath.map((n) => `"${n}"`).join(', ')}: already working on this task further up (${caller.agentPath.join(' > ')}); an agent cannot delegate to itself or to an agent above it.` });
  }
  if (profiles.length === 0) {
    return { error: `None of the requested agents (${requested.join(', ')}) is available here. Available agents: ${describeAgents(delegates)}.` };
  }
  return { profiles };
}
