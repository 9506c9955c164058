import { isAbsolute, resolve as resolvePath } from 'node:path';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import { ModelSpecError } from './modelResolver';
import type { ModelCaller, ModelResolver } from './modelResolver';
import { parseModelSpec } from './modelSpec';
import type { ModelSpec } from './modelSpec';
import { loadScript } from './scriptSchema';
import type { Script } from './scriptSchema';
import { ScriptPlayer } from './scriptedModel';

/** The kinds a host plugs in itself: the editor's models, and vendor SDKs it chooses to bundle. */
export type HostProviderKind = 'vscode-lm' | 'openai' | 'anthropic';

export type HostProvider<K extends HostProviderKind> = (spec: Extract<ModelSpec, { kind: K }>) => LanguageModel;

/** Whose API key `apiKey` is asked for. */
export type ApiKeyProvider = 'openai' | 'anthropic' | 'openai-compatible';

export interface ModelResolverOptions {
  /** Relative `scripted:` paths are resolved against this folder. */
  workspaceRoot: string;
  /** The API key of a provider, or undefined (an openai-compatible server may need none). */
  apiKey: (provider: ApiKeyProvider) => string | undefined;
  /** Models this host can make; a kind without one is refused with a ModelSpecError. */
  providers?: { [K in HostProviderKind]?: HostProvider<K> };
  /**
   * Every spec the request may use (the default model and each profile's). The `scripted:` ones
   * are loaded before the resolver is returned, because `resolve()` is synchronous.
   */
  specs?: readonly string[];
  /** Scripts already in memory by absolute path (tests, demos); used instead of reading the file. */
  scripts?: ReadonlyMap<string, Script>;
}

const HOST_ONLY: Record<HostProviderKind, string> = {
  'vscode-lm': 'the editor\'s language models are only available inside VS Code (the extension), not here',
  openai: 'this host has no OpenAI provider; use openai-compatible:https://api.openai.com/v1#<model> instead',
  anthropic: 'this host has no Anthropic provider yet; use another model spec',
};

/**
 * Makes the resolver for one top-level request. It is async so that the scripts named in
 * `options.specs` can be read first: `resolve()` must answer synchronously, and a broken script is
 * reported here (as a ScriptError) before any run starts. Each resolver gets fresh script players,
 * so every request replays its scripts from the first turn.
 */
export async function createModelResolver(options: ModelResolverOptions): Promise<ModelResolver> {
  const scripts = new Map<string, Script>(options.scripts);
  for (const spec of new Set(options.specs ?? [])) {
    let parsed: ModelSpec;
    try {
      parsed = parseModelSpec(spec);
    } catch {
      continue; // a malformed spec is reported by resolve(), when a run actually uses it
    }
    if (parsed.kind !== 'scripted') continue;
    const path = scriptPath(options.workspaceRoot, parsed.path);
    if (!scripts.has(path)) scripts.set(path, await loadScript(path));
  }
  return new SpecResolver(options, scripts);
}

function scriptPath(workspaceRoot: string, path: string): string {
  return isAbsolute(path) ? path : resolvePath(workspaceRoot, path);
}

class SpecResolver implements ModelResolver {
  private readonly players = new Map<string, ScriptPlayer>();
  private readonly compatible = new Map<string, ReturnType<typeof createOpenAICompatible>>();

  constructor(
    private readonly options: ModelResolverOptions,
    private readonly scripts: ReadonlyMap<string, Script>,
  ) {}

  resolve(spec: string, caller: ModelCaller): LanguageModel {
    const parsed = parseModelSpec(spec);
    switch (parsed.kind) {
      case 'scripted':
        return this.player(parsed.path).modelFor(caller);
      case 'openai-compatible':
        return this.compatibleProvider(parsed.baseURL).chatModel(parsed.model);
      case 'vscode-lm':
        return this.hosted('vscode-lm', spec, (p) => p(parsed));
      case 'openai':
        return this.hosted('openai', spec, (p) => p(parsed));
      case 'anthropic':
        return this.hosted('anthropic', spec, (p) => p(parsed));
    }
  }

  private hosted<K extends HostProviderKind>(kind: K, spec: string, make: (provider: HostProvider<K>) => LanguageModel): LanguageModel {
    const provider = this.options.providers?.[kind] as HostProvider<K> | undefined;
    if (!provider) throw new ModelSpecError(`Cannot use the model "${spec}": ${HOST_ONLY[kind]}.`);
    return make(provider);
  }

  private player(path: string): ScriptPlayer {
    const absolute = scriptPath(this.options.workspaceRoot, path);
    let player = this.players.get(absolute);
    if (player) return player;
    const script = this.scripts.get(absolute);
    if (!script) {
      throw new ModelSpecError(
        `The script "${absolute}" was not loaded: list its spec in createModelResolver({ specs }) so it is read before the run starts.`,
      );
    }
    player = new ScriptPlayer(script, path);
    this.players.set(absolute, player);
    return player;
  }

  private compatibleProvider(baseURL: string) {
    let provider = this.compatible.get(baseURL);
    if (!provider) {
      const apiKey = this.options.apiKey('openai-compatible');
      provider = createOpenAICompatible({ name: 'openai-compatible', baseURL, includeUsage: true, ...(apiKey ? { apiKey } : {}) });
      this.compatible.set(baseURL, provider);
    }
    return provider;
  }
}
