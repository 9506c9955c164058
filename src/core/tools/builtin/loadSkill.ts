import { lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { z } from 'zod';
import { lazySchema } from '../../../shared/lazySchema';
import { SKILL_TOOL } from '../../config/agentFiles/toolNames';
import type { Skill } from '../../config/skills/skill';
import { inside } from '../../config/skills/readSkills';
import { defuse } from '../../access/untrusted/untrustedText';
import { defineTool, type AnyToolSpec } from '../toolSpec';
import { looksBinary } from './toolDeps';

/** A file beside a user's skill larger than this is not read whole into a model's context. */
const MAX_SKILL_FILE_BYTES = 256 * 1024;
/** The files of a skill's folder listed with its instructions, at most. */
const MAX_LISTED_FILES = 100;

const inputSchema = lazySchema(() =>
  z.object({
    name: z.string().describe('The skill, by the name listed in your instructions.'),
    file: z
      .string()
      .optional()
      .describe(
        "A file of the skill's folder to read, relative to it (e.g. references/api.md); leave out to get the skill's instructions.",
      ),
  }),
);

/**
 * The skill tool: hands over a skill's instructions (the body of its SKILL.md) when the model asks
 * for them, with the list of files beside it. A workspace skill's files are the workspace's, read
 * with read_file like any other (its approval rules apply); a user skill's folder lies outside the
 * workspace, so this tool reads its files itself: read-only, only regular files, and only inside
 * that one folder after links are resolved. Skills are looked up by name, never by a path.
 */
export function loadSkillTool(skills: readonly Skill[], root: string): AnyToolSpec {
  const byName = new Map(skills.filter((s) => !s.hidden).map((s) => [s.name, s]));
  const realRoot = realOr(root);
  return defineTool<z.infer<typeof inputSchema>>({
    name: SKILL_TOOL,
    description:
      "Load a skill: returns the instructions of the named skill (listed in your system prompt), to follow for the task it describes, and the files in its folder. With `file`, reads one of the skill's own files.",
    capabilities: ['read'],
    inputSchema,
    execute: async (input) => {
      const skill = byName.get(input.name);
      if (!skill) {
        const names = [...byName.keys()].join(', ') || '(none)';
        return { error: `There is no skill "${input.name}". The skills are: ${names}.` };
      }
      const folder =
        skill.scope === 'workspace' ? relative(realRoot, skill.dir).split(sep).join('/') : skill.source.replace(/\/SKILL\.md$/, '');
      if (input.file !== undefined) return readSkillFile(skill, folder, input.file);
      const files = listFiles(skill.dir);
      const how =
        skill.scope === 'workspace'
          ? `Its files are in the workspace: read them with read_file at ${folder}/<file>.`
          : `Its folder is outside the workspace: read its files with ${SKILL_TOOL} and "file".`;
      return {
        name: skill.name,
        description: skill.description,
        folder,
        // Marker runs are defused, so a skill's text can never pass for the end of an untrusted block.
        instructions: defuse(skill.body),
        files,
        note: `Follow these instructions for the task the skill is for. ${how}${
          skill.allowedTools
            ? ` Its "allowed-tools" (${skill.allowedTools.join(', ')}) grant nothing here: your own tools and the approval settings apply.`
            : ''
        }`,
      };
    },
  });
}

function readSkillFile(skill: Skill, folder: string, file: string): unknown {
  if (skill.scope === 'workspace')
    return { error: `The skill "${skill.name}" is in the workspace: read its file with read_file at ${folder}/${file}.` };
  if (isAbsolute(file)) return { error: `"file" is relative to the skill's folder (e.g. references/api.md), not an absolute path.` };
  const target = resolve(skill.dir, file);
  if (!inside(target, skill.dir) || target === skill.dir)
    return { error: `"${file}" is not inside the skill's folder; only its own files can be read.` };
  let real: string;
  try {
    real = realpathSync(target);
  } catch {
    return { error: `The skill "${skill.name}" has no file ${file}. Its files: ${listFiles(skill.dir).join(', ') || '(none)'}.` };
  }
  // A link inside the folder must not lead anywhere else (~/.ssh, …).
  if (!inside(real, skill.dir)) return { error: `${file} is a link out of the skill's folder, so it is not read.` };
  const info = lstatSync(real);
  if (!info.isFile()) return { error: `${file} is not a regular file.` };
  if (info.size > MAX_SKILL_FILE_BYTES)
    return { error: `${file} is ${info.size} bytes, more than the ${MAX_SKILL_FILE_BYTES} a skill's file may have here.` };
  const text = readFileSync(real, 'utf8');
  if (looksBinary(text)) return { error: `${file} is a binary file, not text.` };
  return { skill: skill.name, file, content: defuse(text) };
}

/** The folder's files, relative, without following links, at most MAX_LISTED_FILES. */
function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string, depth: number) => {
    let entries;
    try {
      entries = readdirSync(at, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (out.length >= MAX_LISTED_FILES) return;
      const path = join(at, e.name);
      if (e.isDirectory() && depth < 3) walk(path, depth + 1);
      else if (e.isFile() && !(at === dir && e.name === 'SKILL.md')) out.push(relative(dir, path).split(sep).join('/'));
    }
  };
  walk(dir, 0);
  return out;
}

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
