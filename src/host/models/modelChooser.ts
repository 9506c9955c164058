import { ollamaSpec } from '../../core/models/probeOllama';
import type { ModelChoice } from '../../shared/protocol';

/**
 * First run: what the user can pick as a model when none is set. Looks for the editor's own
 * models and a local Ollama, always offers an API key, and saves a choice as `subagents.model`.
 * The webview sends back only a choice's id; the spec written is the one offered here.
 * Knows the editor only through its deps, so it is tested with fakes.
 */

export type KeyVendor = 'openai' | 'anthropic';

export interface ModelChooserDeps {
  /** The editor's chat models (vscode.lm); empty when there are none. */
  editorModels(): Promise<{ vendor: string; family: string; name: string }[]>;
  /** Ollama's address, and its models (undefined when nothing answers there). */
  ollamaUrl: string;
  probeOllama(url: string): Promise<string[] | undefined>;
  /** Writes `subagents.model` where it takes effect; returns where, as people say it ("your user settings"). */
  saveModel(spec: string): Promise<string>;
  /** Asks for a key in a password box; undefined when the user cancels. */
  askKey(vendor: KeyVendor): Promise<string | undefined>;
  storeKey(vendor: KeyVendor, key: string): Promise<void>;
  /** Asks which model of the vendor, suggesting one; undefined when the user cancels. */
  askModelName(vendor: KeyVendor, suggestion: string): Promise<string | undefined>;
  /** The workspace's demo script (`.vscode/demo-script.json`) when it has one, so the picker can go back to it. */
  demoScript?(): Promise<string | undefined>;
}

/** A pick carried out: the spec written, and where. */
export interface ChosenModel {
  spec: string;
  savedIn: string;
}

export interface ModelChoiceList {
  choices: ModelChoice[];
  notes: string[];
}

const VENDORS: Record<KeyVendor, { name: string; suggestion: string }> = {
  openai: { name: 'OpenAI', suggestion: 'gpt-4.1' },
  anthropic: { name: 'Anthropic', suggestion: 'claude-sonnet-4-5' },
};

export class ModelChooser {
  /** What each offered id does when chosen; replaced by every listing. */
  private offered = new Map<string, () => Promise<ChosenModel | undefined>>();

  constructor(private readonly deps: ModelChooserDeps) {}

  async list(): Promise<ModelChoiceList> {
    const [editor, ollama, demo] = await Promise.all([
      this.deps.editorModels().catch(() => []),
      this.deps.probeOllama(this.deps.ollamaUrl),
      this.deps.demoScript?.().catch(() => undefined),
    ]);
    const choices: ModelChoice[] = [];
    const notes: string[] = [];
    const offered = new Map<string, () => Promise<ChosenModel | undefined>>();
    const offer = (choice: ModelChoice, pick: () => Promise<ChosenModel | undefined>) => {
      choices.push(choice);
      offered.set(choice.id, pick);
    };

    if (editor.length === 0) {
      notes.push(
        'No language model is available from the editor. With GitHub Copilot (or another extension that provides models) installed and signed in, its models appear here.',
      );
    }
    for (const m of editor) {
      const spec = `vscode-lm:${m.vendor}/${m.family}`;
      offer({ id: `editor:${m.vendor}/${m.family}`, group: 'editor', label: m.name, detail: `${m.vendor} · no API key needed` }, () =>
        this.save(spec),
      );
    }

    if (ollama === undefined) {
      notes.push(`No Ollama answered at ${this.deps.ollamaUrl}. To use a local model, start Ollama and look again.`);
    } else if (ollama.length === 0) {
      notes.push('Ollama is running but has no models yet: pull one (for example "ollama pull llama3.2") and look again.');
    }
    for (const name of ollama ?? []) {
      offer({ id: `ollama:${name}`, group: 'local', label: name, detail: `Ollama on ${this.deps.ollamaUrl} · runs on this machine` }, () =>
        this.save(ollamaSpec(this.deps.ollamaUrl, name)),
      );
    }

    for (const vendor of Object.keys(VENDORS) as KeyVendor[]) {
      offer(
        {
          id: `key:${vendor}`,
          group: 'key',
          label: `Enter an ${VENDORS[vendor].name} API key…`,
          detail: "Kept in the editor's secret storage, never in settings",
        },
        () => this.withKey(vendor),
      );
    }
    // After a real model was picked, the demo is one pick away again.
    if (demo !== undefined) {
      offer(
        { id: 'demo', group: 'demo', label: 'The demo model (scripted)', detail: `Plays ${demo}: no account or API key, one question` },
        () => this.save(`scripted:${demo}`),
      );
    }
    this.offered = offered;
    return { choices, notes };
  }

  /** Carries out an offered choice; what was saved, or undefined when the user backed out. */
  async choose(id: string): Promise<ChosenModel | undefined> {
    const pick = this.offered.get(id);
    if (!pick) throw new Error('That choice is no longer offered; look for models again.');
    return pick();
  }

  private async save(spec: string): Promise<ChosenModel> {
    return { spec, savedIn: await this.deps.saveModel(spec) };
  }

  private async withKey(vendor: KeyVendor): Promise<ChosenModel | undefined> {
    const key = (await this.deps.askKey(vendor))?.trim();
    if (!key) return undefined;
    await this.deps.storeKey(vendor, key);
    const model = (await this.deps.askModelName(vendor, VENDORS[vendor].suggestion))?.trim();
    if (!model) return undefined;
    return this.save(`${vendor}:${model}`);
  }
}
