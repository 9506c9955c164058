import type { EngineSettings } from '../settings/engineSettings';
import type { ProfileSet } from '../profiles/profile';

/** Every model spec a request may use (the default, each profile's and each prompt file's), so scripts load before the first run. */
export function specsInUse(settings: EngineSettings, profiles: ProfileSet): string[] {
  const specs = new Set<string>();
  if (settings.model) specs.add(settings.model);
  for (const p of profiles.profiles.values()) if (p.model) specs.add(p.model);
  // A prompt file's model written as a spec (a name is resolved when the command is sent).
  for (const c of profiles.commands ?? []) if (c.model?.includes(':')) specs.add(c.model);
  return [...specs];
}
