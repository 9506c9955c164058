import { parseModelSpec } from './modelSpec';

/**
 * Where the openai-compatible key may go. The user stores one key for "an OpenAI-compatible
 * server"; the server is named by a model spec, and a spec the workspace wrote (its settings, its
 * agent files) could name any server, which would then receive the key. So the key is sent only to
 * servers the user named (user settings, a user or built-in profile, the CLI's --model) or allowed
 * once (the extension's prompt, remembered; the CLI's --allow-key-for).
 */

/** The origin (scheme, host, port) of a base URL. */
export function originOf(baseURL: string): string {
  return new URL(baseURL).origin;
}

/** The origins of the openai-compatible servers these specs name (malformed specs name none). */
export function compatibleOrigins(specs: Iterable<string>): string[] {
  const origins = new Set<string>();
  for (const spec of specs) {
    try {
      const parsed = parseModelSpec(spec);
      if (parsed.kind === 'openai-compatible') origins.add(originOf(parsed.baseURL));
    } catch {
      // Reported when a run uses it.
    }
  }
  return [...origins];
}

/** What userChosenSpecs reads of a profile set (config's ProfileSet; models sit below config, so the shape is named here). */
interface ProfileModels {
  profiles: ReadonlyMap<string, { model?: string | undefined; source: string }>;
}

/** The specs the user chose: the default model when the user's own layer set it, and the models of user and built-in profiles. */
export function userChosenSpecs(model: { spec: string; byUser: boolean }, profiles: ProfileModels): string[] {
  const specs = model.byUser && model.spec ? [model.spec] : [];
  for (const p of profiles.profiles.values()) if (p.model && (p.source === 'user settings' || p.source === 'built-in')) specs.push(p.model);
  return specs;
}

/** Decides, per origin, whether the key goes there. */
export function keyOriginPolicy(userSpecs: readonly string[], approvedOrigins: readonly string[]): (origin: string) => boolean {
  const allowed = new Set([...compatibleOrigins(userSpecs), ...approvedOrigins]);
  return (origin) => allowed.has(origin);
}
