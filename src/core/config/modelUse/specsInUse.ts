import type { EngineSettings } from '../settings/engineSettings';
import type { ProfileSet } from '../profiles/profile';

/** Every model spec a request may use (the default and each profile's), so scripts load before the first run. */
export function specsInUse(settings: EngineSettings, profiles: ProfileSet): string[] {
  const specs = new Set<string>();
  if (settings.model) specs.add(settings.model);
  for (const p of profiles.profiles.values()) if (p.model) specs.add(p.model);
  return [...specs];
}
