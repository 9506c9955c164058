import type { Skill } from '../../config/skills/skill';
import { SKILL_TOOL } from '../../config/agentFiles/toolNames';
import { defuse } from '../../access/untrusted/untrustedText';

/**
 * The part of a system prompt that lists the skills: each by name and description only (their
 * bodies cost context only once loaded); '' when there are none, or the agent cannot load them.
 */
export function skillsListing(skills: readonly Skill[] | undefined, canLoad: boolean): string {
  const listed = (skills ?? []).filter((s) => !s.hidden);
  if (!canLoad || listed.length === 0) return '';
  return (
    `Skills: instructions for particular kinds of task. When your task matches a skill's description, load it with ${SKILL_TOOL} before you start, and follow it.\n` +
    listed.map((s) => `- ${s.name}: ${oneLine(s.description)}`).join('\n')
  );
}

/** The bodies of a profile's `skills`, to join its prompt from the start; names no skill has are returned apart. */
export function preloadedSkills(
  names: readonly string[] | undefined,
  skills: readonly Skill[] | undefined,
): { text: string; missing: string[] } {
  if (!names?.length) return { text: '', missing: [] };
  const byName = new Map((skills ?? []).map((s) => [s.name, s]));
  const found = names.flatMap((n) => byName.get(n) ?? []);
  const missing = names.filter((n) => !byName.has(n));
  if (found.length === 0) return { text: '', missing };
  // Skills are the user's own or their repository's instructions (read only in a trusted workspace, like AGENTS.md):
  // they are followed, not fenced as data; marker runs are defused so none can pose as an untrusted block's end.
  const parts = found.map((s) => `<skill name="${s.name}">\n${defuse(s.body)}\n</skill>`);
  return { text: `Skills preloaded for you; follow them where they apply to your task:\n\n${parts.join('\n\n')}`, missing };
}

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();
