import { BUILTIN_MODEL_ALIASES, candidatesFor } from '../../models/modelAliases';
import type { Profile, ProfileProblem } from '../../config/profiles/profile';

/** How a run's model was reached, for its run.config and, when it is worth saying, its node. */
export interface ModelChoiceText {
  /** The profile's `model` as written; null when it names none. */
  requested: string | string[] | null;
  /** How the effective model was reached, in a sentence. */
  via: string;
  /**
   * Set when the run does not simply use the spec it names or inherits: an alias, a list's later
   * entry, or its parent's model because nothing named could be used here (run.started.modelVia).
   */
  notable?: string;
}

export interface ModelChoiceInput {
  profile: Profile;
  /** The spec the run uses. */
  effective: string;
  /** null for the top run of a request. */
  parentAgent: string | null;
  aliases: Readonly<Record<string, string | readonly string[]>>;
  /** The profile set's problems: the note that says why a name could not be used is among them. */
  problems: readonly ProfileProblem[];
  /** Where the request's model (the top run's, when its profile names none) came from, in words. */
  modelOrigin?: string;
}

const SETTINGS_MODEL_ORIGIN = '"subagents.model" (the model in your settings)';

export function describeModelChoice(input: ModelChoiceInput): ModelChoiceText {
  const { profile, effective, parentAgent } = input;
  const asked = profile.requestedModel;
  const inherited = parentAgent === null ? (input.modelOrigin ?? SETTINGS_MODEL_ORIGIN) : `its parent's model (the "${parentAgent}" run)`;
  if (asked === undefined) {
    if (profile.model !== undefined) return { requested: profile.model, via: `the "${profile.name}" profile's model (${profile.source})` };
    return { requested: null, via: `${inherited}: the profile names no model` };
  }
  const requested = typeof asked === 'string' ? asked : [...asked];
  const names = (typeof asked === 'string' ? [asked] : [...asked]).map((n) => n.trim()).filter((n) => n !== '');
  const listed = names.map((n) => `"${n}"`).join(', ');
  if (profile.model === undefined) {
    if (names.every((n) => n.toLowerCase() === 'inherit')) return { requested, via: `${inherited}: the profile says "inherit"` };
    const why = input.problems.find((p) => p.name === profile.name && p.field === 'model')?.message.replace(/^model /, '');
    return {
      requested,
      via: `${inherited}, because ${why ?? `none of ${listed} can be used here`}`,
      notable: `fallback to ${inherited}: ${listed} cannot be used here`,
    };
  }
  const entry = names.findIndex((n) => candidatesFor(n, input.aliases).some((c) => fits(c, effective)));
  const name = names[Math.max(0, entry)]!;
  const parts: string[] = [];
  if (names.length > 1) {
    const earlier = names.slice(0, Math.max(0, entry));
    parts.push(
      `entry ${entry + 1} of the profile's list ${listed}${earlier.length ? ` (${earlier.map((n) => `"${n}"`).join(', ')} cannot be used here)` : ''}`,
    );
  }
  if (name !== effective) {
    const candidates = candidatesFor(name, input.aliases);
    const at = candidates.findIndex((c) => fits(c, effective));
    parts.push(`"${name}", ${aliasKind(name, input.aliases)}${at > 0 ? `, whose first usable candidate here is ${effective}` : ''}`);
  }
  const via = parts.length ? `${effective}: ${parts.join('; ')}` : `the "${profile.name}" profile's model (${profile.source})`;
  const fallback = entry > 0 || (name !== effective && candidatesFor(name, input.aliases).findIndex((c) => fits(c, effective)) > 0);
  return { requested, via, ...(parts.length ? { notable: `${fallback ? 'fallback: ' : ''}${parts.join('; ')}` } : {}) };
}

/** A candidate stands for the spec: the same, or a family pattern (`claude-sonnet*`) it matches. */
function fits(candidate: string, spec: string): boolean {
  return candidate === spec || (candidate.endsWith('*') && spec.startsWith(candidate.slice(0, -1)));
}

function aliasKind(name: string, aliases: Readonly<Record<string, unknown>>): string {
  const lower = name.toLowerCase();
  if (Object.keys(aliases).some((a) => a.toLowerCase() === lower)) return 'an alias in subagents.modelAliases';
  if (BUILTIN_MODEL_ALIASES[lower]) return 'a built-in alias';
  return 'a model name, mapped to its family';
}
