import { parseModelSpec, type ModelSpec } from './modelSpec';

/**
 * Model names that are not specs: Claude Code's aliases (`sonnet`, `opus`, `haiku`, `inherit`),
 * Copilot's display names (`GPT-4.1`, `Claude Sonnet 4.5 (copilot)`) and their lists, and the
 * user's own `subagents.modelAliases`. A name becomes a list of candidate specs; the first one that
 * can be used here wins, and when none can, the agent inherits its parent's model (with a note).
 */

/** A profile's `model` as written: a spec, a name, or a list of them tried in order. */
export type ModelRef = string | readonly string[];

/** Built-in aliases, lowest precedence: the user's `subagents.modelAliases` replace any of them. */
export const BUILTIN_MODEL_ALIASES: Readonly<Record<string, readonly string[]>> = {
  sonnet: ['vscode-lm:copilot/claude-sonnet*', 'anthropic:claude-sonnet-5-5'],
  opus: ['vscode-lm:copilot/claude-opus*', 'anthropic:claude-opus-5-5'],
  haiku: ['vscode-lm:copilot/claude-haiku*', 'anthropic:claude-haiku-5-5'],
  fable: ['anthropic:claude-fable-5-2'],
  opusplan: ['vscode-lm:copilot/claude-opus*', 'anthropic:claude-opus-5-5'],
};

/** What is usable where the run happens: the editor's models, and which providers have a key. */
export interface ModelAvailability {
  /** The editor's language models; undefined outside the editor (the CLI). */
  editorModels?: readonly { vendor: string; family: string }[];
  /** Whether an API key for the provider is set. */
  hasKey(provider: 'openai' | 'anthropic'): boolean;
  /** Where the user sets a key, for notes: "run Subagents: Set API Key", "set ANTHROPIC_API_KEY". */
  keyHint(provider: 'openai' | 'anthropic'): string;
}

export type ModelChoice =
  { kind: 'spec'; spec: string; via?: string } | { kind: 'inherit'; code?: 'model-unknown' | 'model-unavailable'; message?: string };

const PROVIDER_NAMES = { openai: 'OpenAI', anthropic: 'Anthropic' } as const;

const isSpec = (text: string): boolean => /^(vscode-lm|openai-compatible|openai|anthropic|scripted):/.test(text.trim());

/** A spec or a name a profile may use: checked loosely when read, resolved by chooseModel. */
export function looksLikeModelRef(text: string): boolean {
  return isSpec(text) || /^[\w.\- ()[\]]{1,80}$/.test(text.trim());
}

/** The candidates a name stands for, best first; [] when it names nothing we know. */
export function candidatesFor(name: string, aliases: Readonly<Record<string, string | readonly string[]>>): string[] {
  const trimmed = name.trim();
  if (isSpec(trimmed)) return [trimmed];
  const lower = trimmed.toLowerCase();
  const own = Object.entries(aliases).find(([alias]) => alias.toLowerCase() === lower)?.[1];
  if (own !== undefined) return typeof own === 'string' ? [own] : [...own];
  const builtin = BUILTIN_MODEL_ALIASES[lower];
  if (builtin) return [...builtin];
  return familyCandidates(trimmed);
}

/**
 * A model's own name (Copilot's "GPT-4.1", "Claude Sonnet 4.5 (copilot)", Claude Code's
 * "claude-sonnet-4-20250514"): the editor's model of that family first, then the provider's API.
 */
function familyCandidates(name: string): string[] {
  const vendorMatch = /\(([\w-]+)\)\s*$/.exec(name);
  const vendor = vendorMatch ? vendorMatch[1]!.toLowerCase() : 'copilot';
  const id = name
    .replace(/\(([\w-]+)\)\s*$/, '')
    .trim()
    .toLowerCase()
    .replace(/\s+/g, '-');
  if (!/^[a-z0-9][a-z0-9.-]*$/.test(id)) return [];
  if (id.startsWith('claude')) {
    const family = id.replace(/-\d{8}$/, '').replace(/(\d)-(\d)/g, '$1.$2');
    return [`vscode-lm:${vendor}/${family}`, `anthropic:${id.replace(/(\d)\.(\d)/g, '$1-$2')}`];
  }
  if (/^(gpt|o\d|chatgpt)/.test(id)) return [`vscode-lm:${vendor}/${id}`, `openai:${id}`];
  if (/^(gemini|grok|raptor)/.test(id) || vendorMatch) return [`vscode-lm:${vendor}/${id}`];
  return [];
}

/** Why a spec cannot be used here, or undefined when it can. */
function unavailable(spec: ModelSpec, text: string, where: ModelAvailability): string | undefined {
  switch (spec.kind) {
    case 'vscode-lm': {
      if (!where.editorModels) return `${text} is one of the editor's models, which only the extension can use`;
      const offered = pickEditorModel(spec, where.editorModels);
      return offered ? undefined : `the editor offers no ${spec.vendor}/${spec.family} model`;
    }
    case 'openai':
    case 'anthropic':
      return where.hasKey(spec.kind) ? undefined : `${text} needs an ${PROVIDER_NAMES[spec.kind]} API key (${where.keyHint(spec.kind)})`;
    default:
      return undefined;
  }
}

/** The editor's model for a vscode-lm spec; a family ending in `*` takes the newest that starts so. */
function pickEditorModel(
  spec: Extract<ModelSpec, { kind: 'vscode-lm' }>,
  models: readonly { vendor: string; family: string }[],
): string | undefined {
  const ofVendor = models.filter((m) => m.vendor === spec.vendor);
  if (!spec.family.endsWith('*')) return ofVendor.some((m) => m.family === spec.family) ? spec.family : undefined;
  const prefix = spec.family.slice(0, -1);
  const matching = ofVendor.map((m) => m.family).filter((f) => f.startsWith(prefix));
  return matching.sort((a, b) => b.localeCompare(a, 'en', { numeric: true }))[0];
}

/**
 * The model a profile gets for `ref`. A spec is taken as written (it says exactly what the user
 * wants; a missing key is reported when a run uses it). A name or a list is tried candidate by
 * candidate; the first usable one wins. `inherit`, an empty list, a name that maps to nothing,
 * or candidates none of which is usable here: the parent's model, with a note for the last two.
 */
export function chooseModel(
  ref: ModelRef,
  aliases: Readonly<Record<string, string | readonly string[]>>,
  where: ModelAvailability,
): ModelChoice {
  const names = (typeof ref === 'string' ? [ref] : [...ref]).map((n) => n.trim()).filter((n) => n !== '' && n.toLowerCase() !== 'inherit');
  if (names.length === 0) return { kind: 'inherit' };
  if (names.length === 1 && isSpec(names[0]!)) return { kind: 'spec', spec: names[0]! };
  const reasons: string[] = [];
  const unknown: string[] = [];
  for (const name of names) {
    const candidates = candidatesFor(name, aliases);
    if (candidates.length === 0) unknown.push(name);
    for (const candidate of candidates) {
      let spec: ModelSpec;
      try {
        spec = parseModelSpec(candidate);
      } catch {
        reasons.push(`"${candidate}" is not a model spec`);
        continue;
      }
      const why = unavailable(spec, candidate, where);
      if (why) {
        reasons.push(why);
        continue;
      }
      const resolved =
        spec.kind === 'vscode-lm' && spec.family.endsWith('*')
          ? `vscode-lm:${spec.vendor}/${pickEditorModel(spec, where.editorModels ?? [])}`
          : candidate;
      return { kind: 'spec', spec: resolved, ...(resolved === name ? {} : { via: name }) };
    }
  }
  const listed = names.map((n) => `"${n}"`).join(', ');
  if (reasons.length === 0) {
    return {
      kind: 'inherit',
      code: 'model-unknown',
      message: `${listed} ${names.length > 1 ? 'name no model' : 'names no model'} known here, so the agent uses its parent's model. Use a model spec (${'"anthropic:claude-sonnet-5-5"'}, "vscode-lm:copilot/gpt-4.1") or add the name to "subagents.modelAliases"`,
    };
  }
  return {
    kind: 'inherit',
    code: 'model-unavailable',
    message: `${listed} cannot be used here (${[...unknown.map((u) => `"${u}" names no model known here`), ...reasons].join('; ')}), so the agent uses its parent's model`,
  };
}
