import { z } from 'zod';
import { modelSpecSchema } from '../models/modelSpec';

/** A slug: lowercase letters, digits and dashes, starting with a letter. */
export const profileNameSchema = z
  .string()
  .regex(/^[a-z][a-z0-9-]{0,63}$/, 'must be a slug: lowercase letters, digits and dashes, starting with a letter');

/** A profile as written in settings or an agent file, before merging; every field is checked. */
export const profileInputSchema = z.strictObject({
  description: z.string().trim().min(1, 'must say what this agent is for').max(2000),
  instructions: z.string().max(100_000).optional(),
  model: modelSpecSchema.optional(),
  tools: z.array(z.string().min(1)).optional(),
  disallowedTools: z.array(z.string().min(1)).optional(),
  maxSteps: z.number().int().min(1).max(1000).optional(),
  timeoutMs: z.number().int().min(1).optional(),
  returnDirectly: z.boolean().optional(),
  agents: z.array(profileNameSchema).optional(),
  enabled: z.boolean().optional(),
});
export type ProfileInput = z.infer<typeof profileInputSchema>;

export interface Profile extends ProfileInput {
  name: string;
  instructions: string;
  /** Where the winning definition came from, e.g. "built-in", "user settings", ".vscode/agents/x.md". */
  source: string;
}

/** A profile that could not be used, and why. */
export interface ProfileProblem {
  source: string;
  name: string;
  /** The field at fault, dotted ('tools.2'), or '' for the whole profile. */
  field: string;
  message: string;
}

export interface ProfileSet {
  /** Enabled profiles by name. */
  profiles: ReadonlyMap<string, Profile>;
  problems: ProfileProblem[];
}
