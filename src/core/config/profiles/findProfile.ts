import { agentIdOf, findAgentId } from '../../../shared/agentId';
import type { Profile } from './profile';

/**
 * The profile a name as people and models write it means: its id, the name it was written with in
 * its file (`code.reviewer`, `Code Reviewer`, made the id `code-reviewer`), or its display name
 * (Copilot's `name:`). The id wins over a display name that happens to spell another agent's id.
 */
export function findProfile(profiles: ReadonlyMap<string, Profile>, written: string): Profile | undefined {
  const id = findAgentId(profiles.keys(), written);
  if (id) return profiles.get(id);
  const name = written.trim().replace(/^@/, '');
  if (!/[a-z0-9]/i.test(name)) return undefined;
  const lower = name.toLowerCase();
  const key = agentIdOf(name);
  return [...profiles.values()].find(
    (p) => p.displayName !== undefined && (p.displayName.toLowerCase() === lower || agentIdOf(p.displayName) === key),
  );
}
