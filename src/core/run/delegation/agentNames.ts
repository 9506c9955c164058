import { describeProfileProblem } from '../../config/profiles/describeProfileProblem';
import { agentIdOf } from '../../../shared/agentId';
import { findProfile } from '../../config/profiles/findProfile';
import type { Profile } from '../../config/profiles/profile';
import type { DelegationDeps } from './delegationTypes';

/** Models write names loosely ("Code Reviewer", "@reviewer", "code_reviewer"): compare a normal form. */
export function normalizeAgentName(name: string): string {
  return name
    .trim()
    .replace(/^@/, '')
    .toLowerCase()
    .replace(/[\s_]+/g, '-');
}

export function describeAgents(agents: readonly Profile[]): string {
  return agents.length ? agents.map((a) => `${a.name} (${a.description})`).join('; ') : '(none)';
}

/**
 * The profiles for the requested names, in request order and each once. Names that are not
 * available here are warned about and skipped, each with its reason: a profile that failed
 * validation (with its problem), one this agent may not delegate to, one already on the caller's
 * path, or a name nobody defined. None left is an error result that lists the available agents.
 */
export function resolveAgents(deps: DelegationDeps, requested: readonly string[]): { profiles: Profile[] } | { error: string } {
  const { delegates, caller, emit, session } = deps;
  if (requested.length === 0) return { error: `Name at least one agent in "agents". Available agents: ${describeAgents(delegates)}.` };
  const byName = new Map(delegates.map((p) => [p.name, p]));
  const profiles: Profile[] = [];
  const unknown: string[] = [];
  const onPath: string[] = [];
  const notAllowed: string[] = [];
  const invalid = new Map<string, string[]>();
  for (const raw of requested) {
    // The name as written in its file (code.reviewer) or shown (Code Reviewer) finds the agent it became.
    const name = findProfile(session.profiles.profiles, raw)?.name ?? idOrNormal(raw);
    const profile = byName.get(name);
    const problems = session.profiles.problems.filter((p) => p.name === name && p.severity === 'error'); // only errors keep a profile out
    if (profile) {
      if (!profiles.includes(profile)) profiles.push(profile);
    } else if (caller.agentPath.includes(name)) onPath.push(name);
    else if (session.profiles.profiles.has(name)) notAllowed.push(name);
    else if (problems.length > 0) invalid.set(name, problems.map(describeProfileProblem));
    else unknown.push(raw);
  }
  for (const [name, problems] of invalid) {
    emit({
      kind: 'warning',
      message: `Skipped "${name}": its profile is invalid, so it cannot run until it is fixed. ${problems.join(' ')}`,
    });
  }
  if (notAllowed.length > 0) {
    emit({
      kind: 'warning',
      message: `Skipped ${quoted(notAllowed)}: not among the agents "${caller.agent}" may delegate to (${delegates.map((d) => d.name).join(', ') || 'none'}).`,
    });
  }
  if (unknown.length > 0) {
    emit({
      kind: 'warning',
      message: `Skipped unknown agent${unknown.length > 1 ? 's' : ''} ${quoted(unknown)}; available: ${delegates.map((d) => d.name).join(', ') || '(none)'}.`,
    });
  }
  if (onPath.length > 0) {
    emit({
      kind: 'warning',
      message: `Skipped ${quoted(onPath)}: already working on this task further up (${caller.agentPath.join(' > ')}); an agent cannot delegate to itself or to an agent above it.`,
    });
  }
  if (profiles.length === 0) {
    return {
      error: `None of the requested agents (${requested.join(', ')}) is available here. Available agents: ${describeAgents(delegates)}.`,
    };
  }
  return { profiles };
}

/** A name no enabled agent has: the id a file of that name would have, to find its problems by. */
function idOrNormal(raw: string): string {
  const normal = normalizeAgentName(raw);
  return /[a-z0-9]/.test(normal) ? agentIdOf(normal) : normal;
}

function quoted(names: readonly string[]): string {
  return names.map((n) => `"${n}"`).join(', ');
}
