import { nearest, slugify } from '../agentFiles/nearest';
import type { Profile, ProfileProblem } from './profile';
import { addReadToWriters } from './readWithWrite';

/**
 * Checks across profiles, after the merge: an `agents` entry that names a display name becomes
 * that agent's id (Copilot files name each other so: `agents: ['SWE', 'QA']`); one that names no
 * agent is a warning; agents that name each other in a circle are a warning on each (at run time
 * an agent never delegates to one already working above it, so such a circle just stops); an agent
 * that may write gets read_file (readWithWrite.ts).
 */
export function checkProfileSet(profiles: ReadonlyMap<string, Profile>): { profiles: Map<string, Profile>; problems: ProfileProblem[] } {
  const byDisplay = new Map<string, string>();
  for (const p of profiles.values()) {
    if (p.displayName) {
      byDisplay.set(p.displayName.toLowerCase(), p.name);
      byDisplay.set(slugify(p.displayName), p.name);
    }
  }
  const out = new Map<string, Profile>();
  const problems: ProfileProblem[] = [];
  for (const [name, written] of profiles) {
    const readable = addReadToWriters(written);
    problems.push(...readable.problems);
    const profile = readable.profile;
    if (!profile.agents) {
      out.set(name, profile);
      continue;
    }
    const agents: string[] = [];
    profile.agents.forEach((ref, index) => {
      const id = profiles.has(ref) ? ref : (byDisplay.get(ref.toLowerCase()) ?? byDisplay.get(slugify(ref)));
      if (id) {
        if (!agents.includes(id)) agents.push(id);
        return;
      }
      const guess = nearest(ref, profiles.keys());
      problems.push(
        at(profile, `agents.${index}`, {
          code: 'agent-missing',
          severity: 'warning',
          message: `"agents" names "${ref}", and there is no agent "${ref}" here${guess ? `; did you mean "${guess}"?` : ''}`,
          ...(guess ? { fixes: [{ title: `Use "${guess}"`, newText: guess }] } : {}),
        }),
      );
    });
    out.set(name, { ...profile, agents });
  }
  problems.push(...cycles(out));
  return { profiles: out, problems };
}

function at(profile: Profile, field: string, p: Pick<ProfileProblem, 'code' | 'severity' | 'message' | 'fixes'>): ProfileProblem {
  const range = profile.origin?.ranges[field] ?? profile.origin?.ranges[field.split('.')[0]!];
  return {
    source: profile.source,
    name: profile.name,
    field,
    ...p,
    ...(profile.origin ? { path: profile.origin.path } : { setting: 'subagents.agents' }),
    ...(range ? { range } : {}),
  };
}

/** Each circle of explicit `agents` lists, reported once on every profile in it. */
function cycles(profiles: ReadonlyMap<string, Profile>): ProfileProblem[] {
  const problems: ProfileProblem[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const reported = new Set<string>();
  const stack: string[] = [];
  const visit = (name: string): void => {
    state.set(name, 'open');
    stack.push(name);
    for (const next of profiles.get(name)?.agents ?? []) {
      if (!profiles.has(next)) continue;
      if (state.get(next) === 'open') {
        const circle = [...stack.slice(stack.indexOf(next)), next];
        for (const member of circle.slice(0, -1)) {
          if (reported.has(member)) continue;
          reported.add(member);
          problems.push(
            at(profiles.get(member)!, 'agents', {
              code: 'delegation-cycle',
              severity: 'warning',
              message: `"agents" makes a circle (${circle.join(' → ')}); at run time an agent never delegates to one already working above it, so the circle stops there`,
            }),
          );
        }
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(name, 'done');
  };
  for (const name of profiles.keys()) if (!state.has(name)) visit(name);
  return problems;
}
