import { lstatSync, readFileSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { ProfileProblem } from '../profiles/profileProblem';
import { checkSkillFile } from './checkSkillFile';
import { MAX_SKILL_BYTES, MAX_SKILLS, type Skill } from './skill';
import { skillFolders, type SkillFolder } from './skillFolders';

export interface SkillSources {
  root?: string | undefined;
  home?: string | undefined;
  /** An untrusted workspace's skills are not read (they would steer every agent). */
  trusted: boolean;
  /** Texts of files open in the editor, by absolute path (the language server's unsaved edits). */
  overlay?: ReadonlyMap<string, string>;
}

export interface SkillsRead {
  skills: Skill[];
  problems: ProfileProblem[];
}

/**
 * Reads every skill folder: user folders first, then the workspace's. A skill is a sub-folder with
 * a SKILL.md. What a workspace holds is hostile until checked: a skill folder or SKILL.md that is a
 * link out of the workspace (or, for any skill, a SKILL.md that leads out of its own folder) is left
 * out with a warning, and so is one larger than MAX_SKILL_BYTES; names are checked by checkSkillFile.
 */
export function readSkills(sources: SkillSources): SkillsRead {
  const out: SkillsRead = { skills: [], problems: [] };
  const taken = new Map<string, Skill>();
  const realRoot = sources.root ? realOrUndefined(sources.root) : undefined;
  for (const folder of skillFolders(sources)) {
    for (const entry of listSkillFolder(folder)) {
      const skill = readOne(folder, entry, realRoot, sources.overlay, out.problems);
      if (!skill) continue;
      const first = taken.get(skill.name);
      if (first) {
        out.problems.push(
          warning(
            skill,
            `is not used: a skill named "${skill.name}" was found first in ${first.source} (your own skills come before the workspace's)`,
            'duplicate',
          ),
        );
        continue;
      }
      if (taken.size >= MAX_SKILLS) {
        out.problems.push(
          warning(
            skill,
            `is not used: at most ${MAX_SKILLS} skills are read, and every one is listed in every agent's prompt`,
            'field-ignored',
          ),
        );
        continue;
      }
      taken.set(skill.name, skill);
      out.skills.push(skill);
    }
  }
  return out;
}

function listSkillFolder(folder: SkillFolder): string[] {
  try {
    return readdirSync(folder.dir).sort();
  } catch {
    return [];
  }
}

function readOne(
  folder: SkillFolder,
  entry: string,
  realRoot: string | undefined,
  overlay: ReadonlyMap<string, string> | undefined,
  problems: ProfileProblem[],
): Skill | undefined {
  const dirPath = join(folder.dir, entry);
  const path = join(dirPath, 'SKILL.md');
  const source = `${folder.label}/${entry}/SKILL.md`;
  const warn = (message: string) =>
    problems.push({ source, name: entry, field: '', message, severity: 'warning', code: 'field-ignored', path });
  let dir: string;
  try {
    if (!statSync(dirPath).isDirectory()) return undefined;
    dir = realpathSync(dirPath);
    if (!lstatSync(path, { throwIfNoEntry: false })) return undefined;
  } catch {
    return undefined;
  }
  // A workspace's skill is its own text: a link must not bring in a folder from elsewhere (~/.ssh, …).
  if (folder.scope === 'workspace' && (!realRoot || !inside(dir, realRoot))) {
    warn("is in a folder that links outside the workspace, so it is left out of the agents' prompts");
    return undefined;
  }
  let text = overlay?.get(path);
  if (text === undefined) {
    let real: string;
    try {
      real = realpathSync(path);
    } catch {
      warn('is a link to nothing, so the skill is left out');
      return undefined;
    }
    if (!inside(real, dir)) {
      warn("is a link to a file outside its skill's folder, so the skill is left out");
      return undefined;
    }
    const info = statSync(real);
    if (!info.isFile()) return undefined;
    if (info.size > MAX_SKILL_BYTES) {
      warn(
        `is ${Math.round(info.size / 1024)} KB, more than the ${MAX_SKILL_BYTES / 1024} KB a skill may have, so it is left out: move the details into files beside it`,
      );
      return undefined;
    }
    text = readFileSync(real, 'utf8');
  } else if (Buffer.byteLength(text) > MAX_SKILL_BYTES) {
    warn(`is more than the ${MAX_SKILL_BYTES / 1024} KB a skill may have, so it is left out`);
    return undefined;
  }
  const checked = checkSkillFile(text, { path, source, folderName: entry });
  problems.push(...checked.problems);
  if (!checked.skill) return undefined;
  return { ...checked.skill, dir, path, source, scope: folder.scope };
}

function warning(skill: Skill, message: string, code: ProfileProblem['code']): ProfileProblem {
  return { source: skill.source, name: skill.name, field: 'name', message, severity: 'warning', code, path: skill.path };
}

export function inside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

function realOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}
