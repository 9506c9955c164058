import { SUPERVISOR } from '../../config/settings/engineSettings';
import { findProfile } from '../../config/profiles/findProfile';
import { unknownAgentText } from '../../config/profiles/brokenAgents';
import type { Profile, ProfileSet } from '../../config/profiles/profile';

/** The profile a request's top run works as: the supervisor, or the agent asked for; why not, when there is no such agent. */
export function topProfile(agent: string | undefined, profiles: ProfileSet): Profile | { error: string } {
  if (agent === undefined || agent === SUPERVISOR) {
    return { name: SUPERVISOR, description: 'Answers the user and delegates to subagents.', instructions: '', source: 'built-in' };
  }
  const profile = findProfile(profiles.profiles, agent);
  if (profile) return profile;
  // One whose file failed to load is named with its file and why (issue 42), not as "no such agent".
  return { error: unknownAgentText(agent, profiles.problems, profiles.profiles) };
}
