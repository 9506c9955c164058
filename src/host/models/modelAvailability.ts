import * as vscode from 'vscode';
import type { ModelAvailability } from '../../core/models/modelAliases';
import { vscodeSecrets } from './apiKeys';
import { editorChatModels } from './lm/vscodeLmBinding';

/**
 * What models this window can use, for resolving model aliases when profiles load (which is
 * synchronous): the editor's language models and which providers have a key, both read ahead and
 * refreshed when they change. Until the first refresh the editor offers nothing and no key is known.
 */
export class HostModelAvailability implements ModelAvailability {
  editorModels: { vendor: string; family: string }[] = [];
  private keys = new Set<'openai' | 'anthropic'>();

  constructor(private readonly secrets: vscode.SecretStorage) {}

  hasKey(provider: 'openai' | 'anthropic'): boolean {
    return this.keys.has(provider);
  }

  keyHint(): string {
    return 'run "Subagents: Set API Key"';
  }

  /** Reads both again; true when something changed (the caller reloads the profiles). */
  async refresh(): Promise<boolean> {
    const before = JSON.stringify([this.editorModels, [...this.keys]]);
    try {
      this.editorModels = (await editorChatModels()).map(({ vendor, family }) => ({ vendor, family }));
    } catch {
      this.editorModels = [];
    }
    const secrets = vscodeSecrets(this.secrets);
    const keys = new Set<'openai' | 'anthropic'>();
    for (const provider of ['openai', 'anthropic'] as const) if (await secrets.get(provider)) keys.add(provider);
    this.keys = keys;
    return JSON.stringify([this.editorModels, [...this.keys]]) !== before;
  }

  /** Calls `onChange` after a refresh that changed something: new editor models, a key stored or removed. */
  watch(onChange: () => void): vscode.Disposable[] {
    const again = () =>
      void this.refresh().then(
        (changed) => changed && onChange(),
        () => undefined,
      );
    again();
    return [vscode.lm.onDidChangeChatModels(again), this.secrets.onDidChange(again)];
  }
}
