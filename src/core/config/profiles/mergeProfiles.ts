import type { z } from 'zod';
import { BUILTIN_SOURCE } from './builtinProfiles';
import { profileInputSchema, profileNameSchema } from './profile';
import type { Profile, ProfileInput, ProfileOrigin, ProfileProblem, ProfileSet } from './profile';
import { fieldLabel, zodIssueText } from './zodIssueText';
import { sameAcpDeclaration } from '../acp/acpConsentKey';

/** One source of profiles: `profiles` is an object keyed by agent name, as in `subagents.agents`. */
export interface ProfileLayer {
  /** Where these come from, for problems and for Profile.source: "user settings", ".vscode/agents/x.md". */
  source: string;
  profiles: unknown;
  /** For a file: the file and its fields' ranges (one profile per file). */
  origin?: ProfileOrigin;
  /** For settings: the setting's full name, so a problem can point at it. */
  setting?: string;
}

/** The top-level agent's name: the engine builds it from `subagents.supervisor`, nobody defines it. */
export const RESERVED_PROFILE_NAMES: readonly string[] = ['supervisor'];

const FIELD_LIST =
  'a profile has description, displayName, instructions, model, tools, disallowedTools, maxSteps, timeoutMs, maxTokens, returnDirectly, agents and enabled';

/** `{ "enabled": false }` alone switches a lower profile off; it needs no description. */
const switchOffSchema = profileInputSchema.extend({ description: profileInputSchema.shape.description.optional() });

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Where a layer's problem points: the file's field, or the setting. */
function place(layer: ProfileLayer, field: string): Pick<ProfileProblem, 'path' | 'range' | 'setting'> {
  if (layer.origin) {
    const range =
      layer.origin.ranges[field] ?? layer.origin.ranges[field.split('.')[0]!] ?? layer.origin.ranges['name'] ?? layer.origin.ranges[''];
    return { path: layer.origin.path, ...(range ? { range } : {}) };
  }
  return layer.setting ? { setting: layer.setting } : {};
}

function problem(
  layer: ProfileLayer,
  name: string,
  field: string,
  message: string,
  code: ProfileProblem['code'] = 'bad-value',
): ProfileProblem {
  return { source: layer.source, name, field, message, severity: 'error', code, ...place(layer, field) };
}

function problemsOf(layer: ProfileLayer, name: string, error: z.ZodError): ProfileProblem[] {
  return error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      const keys = issue.keys.map((k) => `"${k}"`).join(', ');
      return problem(layer, name, issue.keys[0] ?? '', `unknown field ${keys}; ${FIELD_LIST}`, 'unknown-field');
    }
    const field = issue.path.map(String).join('.');
    if (field === 'description' && issue.code === 'invalid_type')
      return problem(
        layer,
        name,
        field,
        'has no description: add one that says what this agent is for (the supervisor reads it)',
        'no-description',
      );
    return problem(layer, name, field, `${fieldLabel(issue.path)} ${zodIssueText(issue)}`);
  });
}

type Entry = { profile: Profile; enabled: boolean };

/** Validates one entry of a layer; returns the profile, 'off' for a switch-off, or its problems. */
function readEntry(layer: ProfileLayer, name: string, value: unknown): Profile | 'off' | ProfileProblem[] {
  const nameCheck = profileNameSchema.safeParse(name);
  if (!nameCheck.success)
    return [
      problem(layer, name, '', `"${name}" is not a valid agent name: ${nameCheck.error.issues[0]?.message ?? 'is not a slug'}`, 'bad-name'),
    ];
  if (RESERVED_PROFILE_NAMES.includes(name)) {
    return [
      problem(
        layer,
        name,
        '',
        `"${name}" is reserved for the top-level agent; shape it with the subagents.supervisor setting, or pick another name`,
        'reserved-name',
      ),
    ];
  }
  if (!isRecord(value)) return [problem(layer, name, '', 'a profile must be an object with at least a "description"')];
  if (value.enabled === false && value.description === undefined) {
    const off = switchOffSchema.safeParse(value);
    return off.success ? 'off' : problemsOf(layer, name, off.error);
  }
  const parsed = profileInputSchema.safeParse(value);
  if (!parsed.success) return problemsOf(layer, name, parsed.error);
  const { model, ...input }: ProfileInput = parsed.data;
  const spec = typeof model === 'string' && /^[\w-]+:/.test(model) && model.toLowerCase() !== 'inherit' ? model : undefined;
  return {
    ...input,
    name,
    instructions: input.instructions ?? '',
    source: layer.source,
    ...(spec ? { model: spec } : {}),
    ...(model !== undefined && spec === undefined ? { requestedModel: model } : {}),
    ...(layer.origin ? { origin: layer.origin } : {}),
  };
}

/** The note on a profile that replaces a lower one of the same name. */
function replacementNote(layer: ProfileLayer, name: string, lower: Profile): ProfileProblem {
  const what = lower.source === BUILTIN_SOURCE ? `the built-in "${name}"` : `"${name}" from ${lower.source}`;
  return {
    source: layer.source,
    name,
    field: '',
    message: `replaces ${what}`,
    severity: 'information',
    code: 'replaces',
    ...place(layer, 'name'),
  };
}

/**
 * Two declarations of one external agent (acp) that start different programs: consent given for
 * the one the user read must not start the other, so the winner is marked and does not start.
 */
function acpConflict(layer: ProfileLayer, read: Profile, lower: Profile): { problem: ProfileProblem; profile: Profile } | undefined {
  if (!read.acp || !lower.acp || sameAcpDeclaration(read.acp, lower.acp)) return undefined;
  const sources = [...(lower.acpConflict ?? [lower.source]), read.source];
  return {
    profile: { ...read, acpConflict: sources },
    problem: {
      ...problem(
        layer,
        read.name,
        'acp',
        `declares the external agent "${read.name}" differently from ${sources.slice(0, -1).join(' and ')}: it does not start until all but one of them are removed or renamed`,
        'acp-conflict',
      ),
      severity: 'warning',
    },
  };
}

/**
 * Merges profile layers, lowest precedence first (pass builtinProfileLayer() first to include the
 * built-ins). A higher layer replaces a lower profile of the same name whole, with a note saying
 * so; `{ "enabled": false }` alone switches it off. A bad name or profile becomes a problem (source,
 * name, field, a plain message) and leaves the lower definition in place; everything else still
 * loads. Disabled profiles are left out. A profile's `model` stays unresolved when it is a name or
 * a list (see resolveProfileModels).
 */
export function mergeProfiles(layers: readonly ProfileLayer[]): ProfileSet {
  const entries = new Map<string, Entry>();
  const problems: ProfileProblem[] = [];
  for (const layer of layers) {
    if (layer.profiles === undefined || layer.profiles === null) continue;
    if (!isRecord(layer.profiles)) {
      problems.push(problem(layer, '', '', 'profiles must be an object keyed by agent name, e.g. { "reviewer": { "description": "…" } }'));
      continue;
    }
    for (const [name, value] of Object.entries(layer.profiles)) {
      const read = readEntry(layer, name, value);
      if (Array.isArray(read)) problems.push(...read);
      else if (read === 'off') {
        const lower = entries.get(name);
        if (lower) lower.enabled = false;
      } else {
        const lower = entries.get(name);
        if (lower) problems.push(replacementNote(layer, name, lower.profile));
        const conflict = lower && acpConflict(layer, read, lower.profile);
        if (conflict) problems.push(conflict.problem);
        entries.set(name, { profile: conflict ? conflict.profile : read, enabled: read.enabled !== false });
      }
    }
  }
  const profiles = new Map<string, Profile>();
  for (const [name, entry] of entries) if (entry.enabled) profiles.set(name, entry.profile);
  return { profiles, problems };
}
