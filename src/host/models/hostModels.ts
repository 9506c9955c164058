import * as path from 'node:path';
import * as vscode from 'vscode';
import { readApiKeys } from '../../core/models/apiKeys';
import { createModelResolver } from '../../core/models/createModelResolver';
import { compatibleOrigins, keyOriginPolicy } from '../../core/models/keyOrigins';
import type { ModelResolver } from '../../core/models/modelResolver';
import type { Redactor } from '../../core/access/secrets/redactor';
import { ollamaBaseUrl, probeOllama } from '../../core/models/probeOllama';
import { askApiKey, storeApiKey, vscodeSecrets } from './apiKeys';
import { editorChatModels, vscodeLmModel } from './lm/vscodeLmBinding';
import { DEMO_SCRIPT } from '../../shared/demoModel';
import { ModelChooser } from './modelChooser';

/** The extension's side of models: what a request resolves specs with, and the first-run chooser. */

export interface HostResolverRequest {
  secrets: vscode.SecretStorage;
  workspaceRoot: string;
  /** Every spec the request may use. */
  specs: string[];
  /** The specs the user chose (keyOrigins.ts): their servers may get the openai-compatible key. */
  userSpecs: string[];
  /** Servers the user allowed once to get the key though the workspace named them (global state). */
  keyOrigins: vscode.Memento;
  redactor: Redactor;
}

const KEY_ORIGINS = 'subagents.keyOrigins';
const SEND = 'Send the key';
/** Origins the user declined in this window: not asked again until a reload. */
const declined = new Set<string>();

/**
 * One resolver per request, with the keys its specs need read from secret storage first (each is
 * redacted from then on). The openai-compatible key goes to a server the workspace named only
 * after the user said so once, in a prompt; the answer is kept in global state.
 */
export async function hostModelResolver(request: HostResolverRequest): Promise<ModelResolver> {
  const { secrets, workspaceRoot, specs, redactor } = request;
  const apiKey = await readApiKeys(vscodeSecrets(secrets), specs, (provider, key) => redactor.add(key, `${provider} API key`));
  const approved = () => request.keyOrigins.get<string[]>(KEY_ORIGINS) ?? [];
  if (apiKey('openai-compatible')) {
    const allowed = keyOriginPolicy(request.userSpecs, approved());
    for (const origin of compatibleOrigins(specs)) {
      if (allowed(origin) || declined.has(origin)) continue;
      const answer = await vscode.window.showWarningMessage(
        `This workspace's settings or agent files send model requests to ${origin}. Send your OpenAI-compatible API key there?`,
        {
          modal: true,
          detail:
            'Only if you trust that server: it receives the key with every request. Your answer "Send the key" is remembered for this server.',
        },
        SEND,
      );
      if (answer === SEND) await request.keyOrigins.update(KEY_ORIGINS, [...approved(), origin]);
      else declined.add(origin);
    }
  }
  return createModelResolver({
    workspaceRoot,
    apiKey,
    specs,
    providers: { 'vscode-lm': vscodeLmModel },
    keyAllowed: keyOriginPolicy(request.userSpecs, approved()),
  });
}

export function hostModelChooser(secrets: vscode.SecretStorage): ModelChooser {
  return new ModelChooser({
    editorModels: editorChatModels,
    ollamaUrl: ollamaBaseUrl(),
    probeOllama: (url) => probeOllama(url),
    saveModel: (spec) => saveModel(spec),
    demoScript: () => demoScript(),
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

/** The first folder's demo script, if it has one (a regular file: a folder or a missing file offers nothing). */
async function demoScript(): Promise<string | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder || !vscode.workspace.isTrusted) return undefined;
  const stat = await vscode.workspace.fs.stat(vscode.Uri.joinPath(folder.uri, DEMO_SCRIPT)).then(
    (s) => s,
    () => undefined,
  );
  return stat?.type === vscode.FileType.File ? DEMO_SCRIPT : undefined;
}

/**
 * Writes the picked model to user settings: the pick is about this person's accounts and machine,
 * not the project. But a trusted workspace that sets `subagents.model` itself (the demo's scripted
 * model) wins over user settings, so there the pick goes where it takes effect, and says so.
 */
async function saveModel(spec: string): Promise<string> {
  const section = vscode.workspace.getConfiguration('subagents');
  if (vscode.workspace.isTrusted && section.inspect<string>('model')?.workspaceValue !== undefined) {
    await section.update('model', spec, vscode.ConfigurationTarget.Workspace);
    const file = vscode.workspace.workspaceFile;
    return `${file?.scheme === 'file' ? path.basename(file.fsPath) : '.vscode/settings.json'}, where this workspace set it`;
  }
  await section.update('model', spec, vscode.ConfigurationTarget.Global);
  return 'your user settings';
}
