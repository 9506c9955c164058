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
      const keyless = profile.model === undefined ? undefined : missingKey(profile.model, where);
      if (keyless) problems.push(modelProblem(profile, name, 'model-no-key', 'warning', keyless));
      continue;
    }
    const choice = chooseModel(profile.requestedModel, aliases, where);
    if (choice.kind === 'spec') {
      out.set(name, { ...profile, model: choice.spec });
    } else {
      const { model: _dropped, ...rest } = profile;
      out.set(name, rest);
      if (choice.code && choice.message) problems.push(modelProblem(profile, name, choice.code, 'information', `model ${choice.message}`));
    }
  }
  return { profiles: out, problems };
}

/**
 * A spec written as such (`openai:gpt-5`) is kept even without its key (the user may set it
 * later), but the file says so now rather than at the first run. Which providers have a key is
 * what the host says (the extension's secrets and environment, sent to the language server).
 */
function missingKey(spec: string, where: ModelAvailability): string | undefined {
  const provider = /^(openai|anthropic):/.exec(spec)?.[1] as 'openai' | 'anthropic' | undefined;
  if (!provider || where.hasKey(provider)) return undefined;
  const vendor = provider === 'openai' ? 'OpenAI' : 'Anthropic';
  return `model "${spec}" needs an ${vendor} API key, and none is set: ${where.keyHint(provider)}, or pick a model this window can use; until then a run of this agent stops with "no API key"`;
}

function modelProblem(
  profile: Profile,
  name: string,
  code: ProfileProblem['code'],
  severity: ProfileProblem['severity'],
  message: string,
): ProfileProblem {
  const range = profile.origin?.ranges['model'];
  return {
    source: profile.source,
    name,
    field: 'model',
    message,
    severity,
    code,
    ...(profile.origin ? { path: profile.origin.path } : { setting: 'subagents.agents' }),
    ...(range ? { range } : {}),
  };
}
