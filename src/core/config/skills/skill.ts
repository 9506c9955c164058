import { z } from 'zod';

/**
 * A skill's name as the Agent Skills specification has it (agentskills.io): 1 to 64 lowercase
 * letters, digits and hyphens, no hyphen at either end and none doubled. Being a folder name with
 * no dot or slash, it can never walk out of the folder it names.
 */
export const skillNameSchema = z
  .string()
  .max(64, 'must be at most 64 characters')
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be lowercase letters, digits and single hyphens, with no hyphen at either end');

/** The specification's limit on `description`. */
export const MAX_SKILL_DESCRIPTION = 1024;
/** The specification's limit on `compatibility`. */
export const MAX_SKILL_COMPATIBILITY = 500;
/** A SKILL.md larger than this is left out (with a warning): its body may join a prompt whole. */
export const MAX_SKILL_BYTES = 64 * 1024;
/** At most this many skills are read; every one costs a line in every agent's prompt. */
export const MAX_SKILLS = 100;

/** One skill that every agent's prompt lists and load_skill can hand over. */
export interface Skill {
  name: string;
  description: string;
  /** The text after the front matter: what load_skill returns and a profile's `skills` preloads. */
  body: string;
  /** The skill's folder, after links (its files are read only inside it). */
  dir: string;
  /** SKILL.md, absolute. */
  path: string;
  /** For people: ".claude/skills/review/SKILL.md", "~/.claude/skills/review/SKILL.md". */
  source: string;
  /** A workspace skill's files are the workspace's (read_file reads them); a user skill's are read by load_skill, read-only. */
  scope: 'workspace' | 'user';
  /** `allowed-tools` as written: noted, never a widening of a profile's tools. */
  allowedTools?: string[];
  /** `disable-model-invocation: true` (Claude Code): not listed to the model; a profile may still preload it. */
  hidden?: boolean;
}
