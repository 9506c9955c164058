import { isAbsolute, resolve as resolvePath } from 'node:path';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { deferredModel, loadVendorClients, once, type VendorClients } from './deferredModel';
import { ModelSpecError } from './modelResolver';
import type { ModelCaller, ModelResolver } from './modelResolver';
import { parseModelSpec } from './modelSpec';
import type { ModelSpec } from './modelSpec';
import { loadScript } from './scriptSchema';
import type { Script } from './scriptSchema';
import { ScriptPlayer } from './scriptedModel';
import { originOf } from './keyOrigins';
import { KEY_VARIABLES, type ApiKeyProvider } from './keyVariables';

/**
 * The kinds a host may plug in itself: the editor's models (only a host with an editor has them),
 * and OpenAI or Anthropic when the host wants its own client instead of the built-in one.
 */
export type HostProviderKind = 'vscode-lm' | 'openai' | 'anthropic';

export type HostProvider<K extends HostProviderKind> = (spec: Extract<ModelSpec, { kind: K }>) => LanguageModelV4;

// Re-exported: the host and the CLI name it with the resolver's options.
export type { ApiKeyProvider };

export interface ModelResolverOptions {
  /** Relative `scripted:` paths are resolved against this folder. */
  workspaceRoot: string;
  /** The API key of a provider, or undefined (an openai-compatible server may need none). */
  apiKey: (provider: ApiKeyProvider) => string | undefined;
  /**
   * Whether the openai-compatible key may be sent to this origin (keyOrigins.ts): a server the
   * workspace named gets no key until the user allows it. Without it the key is sent nowhere.
   * `onKeyWithheld` is told when a key is kept back.
   */
  keyAllowed?: (origin: string) => boolean;
  onKeyWithheld?: (origin: string) => void;
  /** Models this host makes itself; `vscode-lm` without one is refused with a ModelSpecError. */
  providers?: { [K in HostProviderKind]?: HostProvider<K> };
  /** Other base URLs for the built-in OpenAI and Anthropic clients (a proxy, a test server). */
  endpoints?: { openai?: string; anthropic?: string };
  /**
   * Every spec the request may use (the default model and each profile's). The `scripted:` ones
   * are loaded before the resolver is returned, because `resolve()` is synchronous.
   */
  specs?: readonly string[];
  /** Scripts already in memory by absolute path (tests, demos); used instead of reading the file. */
  scripts?: ReadonlyMap<string, Script>;
}

const VSCODE_ONLY = "the editor's language models are only available inside VS Code (the extension), not here";

const VENDOR_NAMES = { openai: 'OpenAI', anthropic: 'Anthropic' } as const;

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

// Each client calls its provider through providerFetch: no HTTP timeout under our own idle timeout.
const openAI = (c: VendorClients, apiKey: string, baseURL: string | undefined) =>
  c.createOpenAI({ apiKey, baseURL, fetch: c.providerFetch });
const anthropic = (c: VendorClients, apiKey: string, baseURL: string | undefined) =>
  c.createAnthropic({ apiKey, baseURL, fetch: c.providerFetch });
const compatible = (c: VendorClients, baseURL: string, apiKey: string | undefined) =>
  c.createOpenAICompatible({
    name: 'openai-compatible',
    baseURL,
    includeUsage: true,
    fetch: c.providerFetch,
    ...(apiKey ? { apiKey } : {}),
  });

function scriptPath(workspaceRoot: string, path: string): string {
  return isAbsolute(path) ? path : resolvePath(workspaceRoot, path);
}

class SpecResolver implements ModelResolver {
  private readonly players = new Map<string, ScriptPlayer>();
  // The vendors' clients, made once per resolver on the first call of one of their models.
  private readonly compatible = new Map<string, () => Promise<ReturnType<VendorClients['createOpenAICompatible']>>>();
  private openai: (() => Promise<ReturnType<VendorClients['createOpenAI']>>) | undefined;
  private anthropic: (() => Promise<ReturnType<VendorClients['createAnthropic']>>) | undefined;

  constructor(
    private readonly options: ModelResolverOptions,
    private readonly scripts: ReadonlyMap<string, Script>,
  ) {}

  resolve(spec: string, caller: ModelCaller): LanguageModelV4 {
    const parsed = parseModelSpec(spec);
    const own = this.options.providers;
    switch (parsed.kind) {
      case 'scripted':
        return this.player(parsed.path).modelFor(caller);
      case 'openai-compatible': {
        const client = this.compatibleClient(parsed.baseURL);
        return deferredModel('openai-compatible.chat', parsed.model, async () => (await client()).chatModel(parsed.model));
      }
      case 'vscode-lm':
        if (!own?.['vscode-lm']) throw new ModelSpecError(`Cannot use the model "${spec}": ${VSCODE_ONLY}.`);
        return own['vscode-lm'](parsed);
      case 'openai': {
        if (own?.openai) return own.openai(parsed);
        const apiKey = this.key('openai', spec);
        const client = (this.openai ??= once(async () => openAI(await loadVendorClients(), apiKey, this.options.endpoints?.openai)));
        // The Responses API: the SDK's default, and the only one the newest OpenAI models speak.
        return deferredModel('openai.responses', parsed.model, async () => (await client())(parsed.model));
      }
      case 'anthropic': {
        if (own?.anthropic) return own.anthropic(parsed);
        const apiKey = this.key('anthropic', spec);
        const client = (this.anthropic ??= once(async () =>
          anthropic(await loadVendorClients(), apiKey, this.options.endpoints?.anthropic),
        ));
        return deferredModel('anthropic.messages', parsed.model, async () => (await client())(parsed.model));
      }
    }
  }

  /** The vendor's key, or a ModelSpecError saying where to put it (the SDK would fall back to the environment). */
  private key(vendor: 'openai' | 'anthropic', spec: string): string {
    const key = this.options.apiKey(vendor);
    if (key) return key;
    throw new ModelSpecError(
      `The model "${spec}" needs an ${VENDOR_NAMES[vendor]} API key: run "Subagents: Set API Key" (the CLI reads ${KEY_VARIABLES[vendor]}).`,
    );
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

  /**
   * The client of one openai-compatible server, made on first use. Whether it gets the key is
   * decided (and said) when its first spec is resolved, before the client's code loads.
   */
  private compatibleClient(baseURL: string): () => Promise<ReturnType<VendorClients['createOpenAICompatible']>> {
    let client = this.compatible.get(baseURL);
    if (!client) {
      let apiKey = this.options.apiKey('openai-compatible');
      const origin = originOf(baseURL);
      if (apiKey && !(this.options.keyAllowed?.(origin) ?? false)) {
        apiKey = undefined;
        this.options.onKeyWithheld?.(origin);
      }
      client = once(async () => compatible(await loadVendorClients(), baseURL, apiKey));
      this.compatible.set(baseURL, client);
    }
    return client;
  }
}
