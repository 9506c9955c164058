import * as vscode from 'vscode';
import { readApiKeys } from '../core/models/apiKeys';
import { createModelResolver } from '../core/models/createModelResolver';
import type { ModelResolver } from '../core/models/modelResolver';
import type { Redactor } from '../core/secrets/redactor';
import { ollamaBaseUrl, probeOllama } from '../core/models/probeOllama';
import { askApiKey, storeApiKey, vscodeSecrets } from './apiKeys';
import { editorChatModels, vscodeLmModel } from './lm/vscodeLmBinding';
import { ModelChooser } from './modelChooser';

/** The extension's side of models: what a request resolves specs with, and the first-run chooser. */

/** One resolver per request, with the keys its specs need read from secret storage first; each is redacted from then on. */
export async function hostModelResolver(secrets: vscode.SecretStorage, workspaceRoot: string, specs: string[], redactor: Redactor): Promise<ModelResolver> {
  const apiKey = await readApiKeys(vscodeSecrets(secrets), specs, (provider, key) => redactor.add(key, `${provider} API key`));
  return createModelResolver({ workspaceRoot, apiKey, specs, providers: { 'vscode-lm': vscodeLmModel } });
}

export function hostModelChooser(secrets: vscode.SecretStorage): ModelChooser {
  return new ModelChooser({
    editorModels: editorChatModels,
    ollamaUrl: ollamaBaseUrl(),
    probeOllama: (url) => probeOllama(url),
    // User settings: the pick is about this person's accounts and machine, not the project, and an
    // untrusted workspace ignores workspace model settings anyway.
    saveModel: async (spec) => vscode.workspace.getConfiguration('subagents').update('model', spec, vscode.ConfigurationTarget.Global),
    askKey: askApiKey,
    storeKey: (vendor, key) => storeApiKey(secrets, vendor, key),
    askModelName: async (vendor, suggestion) =>
      vscode.window.showInputBox({
        title: `Which ${vendor === 'openai' ? 'OpenAI' : 'Anthropic'} model?`,
        prompt: 'The model name as the provider spells it.',
        value: suggestion,
        ignoreFocusOut: true,
      }),
  });
}
