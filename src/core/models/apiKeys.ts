import type { Secrets } from '../ports';
import type { ApiKeyProvider } from './keyVariables';
import { parseModelSpec } from './modelSpec';

/** The providers whose keys these specs need (malformed specs need none: they fail on their own). */
export function keyProvidersFor(specs: readonly string[]): ApiKeyProvider[] {
  const needed = new Set<ApiKeyProvider>();
  for (const spec of specs) {
    try {
      const { kind } = parseModelSpec(spec);
      if (kind === 'openai' || kind === 'anthropic' || kind === 'openai-compatible') needed.add(kind);
    } catch {
      // Reported when a run uses it.
    }
  }
  return [...needed];
}

/**
 * Reads, before a request starts, the keys its specs need: the resolver asks for keys
 * synchronously, and secret stores answer asynchronously. Only the needed keys leave the store;
 * `onRead` learns each one (the host's redactor).
 */
export async function readApiKeys(
  secrets: Secrets,
  specs: readonly string[],
  onRead: (provider: ApiKeyProvider, key: string) => void = () => {},
): Promise<(provider: ApiKeyProvider) => string | undefined> {
  const keys = new Map<ApiKeyProvider, string>();
  for (const provider of keyProvidersFor(specs)) {
    const key = (await secrets.get(provider))?.trim();
    if (key) {
      keys.set(provider, key);
      onRead(provider, key);
    }
  }
  return (provider) => keys.get(provider);
}
