import { join } from 'node:path';

/** A folder whose sub-folders are skills (each with a SKILL.md). */
export interface SkillFolder {
  dir: string;
  /** For people: ".claude/skills", "~/.claude/skills". */
  label: string;
  scope: 'workspace' | 'user';
}

/** Where Claude Code, VS Code (Copilot) and the other tools of the open format keep skills, in each place. */
export const SKILL_FOLDERS = ['.claude/skills', '.github/skills', '.agents/skills'] as const;

/** The glob of SKILL.md files, for watchers and the language client. */
export const SKILL_FILE_PATTERNS = SKILL_FOLDERS.map((dir) => `**/${dir}/*/SKILL.md`);

/**
 * The user's folders first, then the workspace's (only when it is trusted: its skills steer every
 * agent). The first skill of a name wins, so a user's own skill is not replaced by a repository's,
 * as in Claude Code (personal skills over project skills).
 */
export function skillFolders(options: { root?: string | undefined; home?: string | undefined; trusted: boolean }): SkillFolder[] {
  const folders: SkillFolder[] = [];
  if (options.home) for (const dir of SKILL_FOLDERS) folders.push({ dir: join(options.home, dir), label: `~/${dir}`, scope: 'user' });
  if (options.root && options.trusted)
    for (const dir of SKILL_FOLDERS) folders.push({ dir: join(options.root, dir), label: dir, scope: 'workspace' });
  return folders;
}

/** Whether a path is a SKILL.md in one of the skill folders (for the language server). */
export function isSkillFilePath(path: string): boolean {
  const p = path.replace(/\\/g, '/');
  return /\/\.(claude|github|agents)\/skills\/[^/]+\/SKILL\.md$/.test(p);
}
