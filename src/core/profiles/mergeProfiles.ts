import type { z } from 'zod';
import { profileInputSchema, profileNameSchema } from './profile';
import type { Profile, ProfileInput, ProfileProblem, ProfileSet } from './profile';

/** One source of profiles: `profiles` is an object keyed by agent name, as in `subagents.agents`. */
export interface ProfileLayer {
  /** Where these come from, for problems and for Profile.source: "user settings", ".vscode/agents/x.md". */
  source: string;
  profiles: unknown;
}

/** The top-level agent's name: the engine builds it from `subagents.supervisor`, nobody defines it. */
export const RESERVED_PROFILE_NAMES: readonly string[] = ['supervisor'];

/** `{ "enabled": false }` alone switches a lower profile off; it needs no description. */
const switchOffSchema = profileInputSchema.extend({ description: profileInputSchema.shape.description.optional() });

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function problemsOf(source: string, name: string, error: z.ZodError): ProfileProblem[] {
  return error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      const keys = issue.keys.map((k) => `"${k}"`).join(', ');
      return { source, name, field: issue.keys[0] ?? '', message: `unknown field ${keys}; a profile has description, instructions, model, tools, disallowedTools, maxSteps, timeoutMs, returnDirectly, agents and enabled` };
    }
    return { source, name, field: issue.path.map(String).join('.'), message: issue.message };
  });
}

type Entry = { profile: Profile; enabled: boolean };

/** Validates one entry of a layer; returns the profile, 'off' for a switch-off, or its problems. */
function readEntry(source: string, name: string, value: unknown): Profile | 'off' | ProfileProblem[] {
  const nameCheck = profileNameSchema.safeParse(name);
  if (!nameCheck.success) return [{ source, name, field: '', message: `"${name}" is not a valid agent name: ${nameCheck.error.issues[0]?.message ?? 'bad name'}` }];
  if (RESERVED_PROFILE_NAMES.includes(name)) {
    return [{ source, name, field: '', message: `"${name}" is reserved for the top-level agent; shape it with the subagents.supervisor setting, or pick another name` }];
  }
  if (!isRecord(value)) return [{ source, name, field: '', message: 'a profile must be an object with at least a "description"' }];
  if (value.enabled === false && value.description === undefined) {
    const off = switchOffSchema.safeParse(value);
    return off.success ? 'off' : problemsOf(source, name, off.error);
  }
  const parsed = profileInputSchema.safeParse(value);
  if (!parsed.success) return problemsOf(source, name, parsed.error);
  const input: ProfileInput = parsed.data;
  return { ...input, name, instructions: input.instructions ?? '', source };
}

/**
 * Merges profile layers, lowest precedence first (pass builtinProfileLayer() first to include the
 * built-ins). A higher layer replaces a lower profile of the same name whole; `{ "enabled": false }`
 * alone switches it off. A bad name or profile becomes a problem (source, name, field, message) and
 * leaves the lower definition in place; everything else still loads. Disabled profiles are left out.
 */
export function mergeProfiles(layers: readonly ProfileLayer[]): ProfileSet {
  const entries = new Map<string, Entry>();
  const problems: ProfileProblem[] = [];
  for (const layer of layers) {
    if (layer.profiles === undefined || layer.profiles === null) continue;
    if (!isRecord(layer.profiles)) {
      problems.push({ source: layer.source, name: '', field: '', message: 'profiles must be an object keyed by agent name, e.g. { "reviewer": { "description": "…" } }' });
      continue;
    }
    for (const [name, value] of Object.entries(layer.profiles)) {
      const read = readEntry(layer.source, name, value);
      if (Array.isArray(read)) problems.push(...read);
      else if (read === 'off') {
        const lower = entries.get(name);
        if (lower) lower.enabled = false;
      } else entries.set(name, { profile: read, enabled: read.enabled !== false });
    }
  }
  const profiles = new Map<string, Profile>();
  for (const [name, entry] of entries) if (entry.enabled) profiles.set(name, entry.profile);
  return { profiles, problems };
}
