import * as vscode from 'vscode';
import { API_KEY_PROVIDERS, environmentSecrets, KEY_VARIABLES } from '../../core/models/keyVariables';
import type { ApiKeyProvider } from '../../core/models/createModelResolver';
import type { Secrets } from '../../core/ports';

/**
 * API keys in the extension: the editor's SecretStorage (encrypted by the OS keychain), never
 * settings. A key the user already exports for the CLI (OPENAI_API_KEY, ...) is used when none is
 * stored, so nothing has to be entered twice.
 */

const PROVIDER_NAMES: Record<ApiKeyProvider, string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  'openai-compatible': 'OpenAI-compatible server',
};

const secretName = (provider: ApiKeyProvider) => `subagents.apiKey.${provider}`;

export function vscodeSecrets(storage: vscode.SecretStorage): Secrets {
  const environment = environmentSecrets();
  return {
    get: async (name) => {
      if (!(API_KEY_PROVIDERS as string[]).includes(name)) return undefined;
      return (await storage.get(secretName(name as ApiKeyProvider))) || environment.get(name);
    },
  };
}

export async function storeApiKey(storage: vscode.SecretStorage, provider: ApiKeyProvider, key: string): Promise<void> {
  await storage.store(secretName(provider), key);
}

/** A password box for one provider's key; undefined when cancelled. */
export async function askApiKey(provider: ApiKeyProvider): Promise<string | undefined> {
  const key = await vscode.window.showInputBox({
    title: `${PROVIDER_NAMES[provider]} API key`,
    prompt: `Stored in the editor's secret storage, never in settings (the CLI reads ${KEY_VARIABLES[provider]}).`,
    password: true,
    ignoreFocusOut: true,
    validateInput: (value) => (/\s/.test(value.trim()) ? 'An API key has no spaces.' : undefined),
  });
  return key?.trim() || undefined;
}

/** "Subagents: Set API Key": pick a provider, type the key, done. */
export async function setApiKeyCommand(storage: vscode.SecretStorage): Promise<void> {
  const picked = await vscode.window.showQuickPick(
    API_KEY_PROVIDERS.map((provider) => ({ label: PROVIDER_NAMES[provider], description: KEY_VARIABLES[provider], provider })),
    { title: 'Set API Key', placeHolder: 'Whose API key?' },
  );
  if (!picked) return;
  const key = await askApiKey(picked.provider);
  if (!key) return;
  await storeApiKey(storage, picked.provider, key);
  void vscode.window.showInformationMessage(`The ${picked.label} API key is stored; the next request uses it.`);
}
