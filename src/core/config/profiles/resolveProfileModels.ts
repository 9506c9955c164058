import { chooseModel, type ModelAvailability } from '../../models/modelAliases';
import type { Profile, ProfileProblem } from './profile';

/**
 * Turns each profile's model name or list (`sonnet`, `["GPT-5", "Claude Sonnet 4.5"]`) into the
 * spec it resolves to here, or leaves it to inherit its parent's model with a note when nothing
 * it names can be used. Specs written as such stay as they are.
 */
export function resolveProfileModels(
  profiles: ReadonlyMap<string, Profile>,
  aliases: Readonly<Record<string, string | readonly string[]>>,
  where: ModelAvailability,
): { profiles: Map<string, Profile>; problems: ProfileProblem[] } {
  const out = new Map<string, Profile>();
  const problems: ProfileProblem[] = [];
  for (const [name, profile] of profiles) {
    if (profile.requestedModel === undefined) {
      out.set(name, profile);
      continue;
    }
    const choice = chooseModel(profile.requestedModel, aliases, where);
    if (choice.kind === 'spec') out.set(name, { ...profile, model: choice.spec });
    else {
      const { model: _dropped, ...rest } = profile;
      out.set(name, rest);
      if (choice.code && choice.message) {
        const range = profile.origin?.ranges['model'];
        problems.push({
          source: profile.source,
          name,
          field: 'model',
          message: `model ${choice.message}`,
          severity: 'information',
          code: choice.code,
          ...(profile.origin ? { path: profile.origin.path } : { setting: 'subagents.agents' }),
          ...(range ? { range } : {}),
        });
      }
    }
  }
  return { profiles: out, problems };
}
