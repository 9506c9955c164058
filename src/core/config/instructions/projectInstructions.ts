import { readFileSync, realpathSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { ProjectInstructionSwitches } from '../settings/engineSettings';
import type { ProjectInstruction } from '../profiles/profile';
import type { ProfileProblem } from '../profiles/profileProblem';

/** The instruction files people already keep at a repository's root, in the order they join a prompt. */
export const PROJECT_INSTRUCTION_FILES = ['AGENTS.md', 'CLAUDE.md', '.github/copilot-instructions.md'] as const;

/** Larger files are left out (with a warning) rather than filling every agent's context. */
export const MAX_INSTRUCTION_BYTES = 64 * 1024;

/**
 * Reads the project's instruction files that exist and are switched on. The caller reads them
 * only in a trusted workspace: they steer every agent, as a prompt the workspace wrote.
 */
export function readProjectInstructions(
  root: string,
  switches: ProjectInstructionSwitches,
): { instructions: ProjectInstruction[]; problems: ProfileProblem[] } {
  const instructions: ProjectInstruction[] = [];
  const problems: ProfileProblem[] = [];
  const warn = (name: string, path: string, message: string) =>
    problems.push({ source: name, name: '', field: '', message, severity: 'warning', code: 'field-ignored', path });
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return { instructions, problems };
  }
  for (const name of PROJECT_INSTRUCTION_FILES) {
    if (!switches[name]) continue;
    const path = join(root, name);
    let size: number;
    try {
      const stat = statSync(path);
      if (!stat.isFile()) continue;
      size = stat.size;
      // Its text goes to the model with every prompt: a link must not bring in a file from elsewhere (~/.ssh, …).
      if (!realpathSync(path).startsWith(realRoot + sep)) {
        warn(name, path, "is a link to a file outside the workspace, so it is left out of the agents' prompts");
        continue;
      }
    } catch {
      continue;
    }
    if (size > MAX_INSTRUCTION_BYTES) {
      warn(
        name,
        path,
        `is ${Math.round(size / 1024)} KB, more than the ${MAX_INSTRUCTION_BYTES / 1024} KB that join every agent's prompt, so it is left out; shorten it, or switch it off in "subagents.projectInstructions"`,
      );
      continue;
    }
    const text = readFileSync(path, 'utf8').trim();
    if (text) instructions.push({ name, path, text });
  }
  return { instructions, problems };
}

/** The part of a system prompt that carries the project's instructions; '' when there are none. */
export function projectInstructionsPrompt(instructions: readonly ProjectInstruction[] | undefined): string {
  if (!instructions?.length) return '';
  const parts = instructions.map((i) => `<project-instructions file="${i.name}">\n${i.text}\n</project-instructions>`);
  return `Instructions from this project's own files; follow them where they apply to your task:\n\n${parts.join('\n\n')}`;
}
