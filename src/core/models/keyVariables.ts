import type { Secrets } from '../ports';

// Kept apart from apiKeys.ts so the extension's light entry (the Set API Key command) can use it
// without pulling in the spec parser and zod.

/** Whose API key is asked for. */
export type ApiKeyProvider = 'openai' | 'anthropic' | 'openai-compatible';

/** Where the CLI (and the extension, when nothing is stored) finds each provider's key. */
export const KEY_VARIABLES: Record<ApiKeyProvider, string> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  'openai-compatible': 'SUBAGENTS_API_KEY',
};

export const API_KEY_PROVIDERS = Object.keys(KEY_VARIABLES) as ApiKeyProvider[];

/** The Secrets port over environment variables: the CLI's keys. */
export function environmentSecrets(env: NodeJS.ProcessEnv = process.env): Secrets {
  return {
    get: async (name) => (name in KEY_VARIABLES ? env[KEY_VARIABLES[name as ApiKeyProvider]] || undefined : undefined),
  };
}
