import type { ProblemCode, ProblemSeverity, ProfileProblem, TextRange } from '../profiles/profileProblem';
import { readFrontMatter } from '../agentFiles/frontMatter';
import { zodIssueText } from '../profiles/zodIssueText';
import { MAX_SKILL_COMPATIBILITY, MAX_SKILL_DESCRIPTION, skillNameSchema } from './skill';

/** The fields of the open format, and Claude Code's own on top of it; the line reader knows them all. */
const SPEC_FIELDS = ['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools'];
const CLAUDE_ONLY: Readonly<Record<string, string>> = {
  'argument-hint': 'skills are not slash commands here (prompt files are)',
  'user-invocable': 'skills are not slash commands here (prompt files are)',
  model: 'a skill runs in the model of the agent that loads it',
  effort: "the model's own default effort is used",
  context: 'a skill is loaded into the agent that asks for it; delegate to a subagent to work apart',
  agent: 'a skill is loaded into the agent that asks for it',
  hooks: 'hooks in a skill are not run here',
};
const KNOWN = new Set([...SPEC_FIELDS, 'disable-model-invocation', ...Object.keys(CLAUDE_ONLY), 'version']);

/** What one SKILL.md says, when it can be used. */
export interface SkillFileContent {
  name: string;
  description: string;
  body: string;
  allowedTools?: string[];
  hidden?: boolean;
}

export interface SkillFileCheck {
  /** Absent when an error keeps the skill out. */
  skill?: SkillFileContent;
  problems: ProfileProblem[];
}

/**
 * Checks one SKILL.md as the Agent Skills specification and Claude Code read it: front matter with
 * `name` (equal to its folder's name) and `description` (at most 1024 characters); `allowed-tools`
 * is noted, since approvals here are the user's settings; Claude Code's own fields are notes too.
 * The language server and the loader both use it, so they say the same at the same places.
 */
export function checkSkillFile(text: string, info: { path: string; source: string; folderName: string }): SkillFileCheck {
  const problems: ProfileProblem[] = [];
  const add = (code: ProblemCode, severity: ProblemSeverity, field: string, message: string, range: TextRange) =>
    problems.push({ source: info.source, name: info.folderName, field, message, severity, code, path: info.path, range });
  const read = readFrontMatter(text, KNOWN);
  if (!read.ok) {
    add(read.code, 'error', '', `${read.message}; a SKILL.md needs front matter with "name" and "description"`, read.range);
    return { problems };
  }
  const fm = read.frontMatter;
  const top = fm.positions.lineRange(0);
  const field = (key: string) => fm.fields.find((f) => f.key === key);
  const nameField = field('name');
  let name = info.folderName;
  if (!nameField || typeof nameField.value !== 'string' || nameField.value.trim() === '') {
    add(
      'no-name',
      'warning',
      'name',
      `has no "name", which the Agent Skills format requires: add "name: ${info.folderName}" (its folder's name, which is used meanwhile)`,
      nameField?.keyRange ?? top,
    );
    if (!skillNameSchema.safeParse(info.folderName).success)
      add(
        'bad-name',
        'error',
        '',
        `its folder "${info.folderName}" is not a skill name (lowercase letters, digits and single hyphens, at most 64): rename the folder`,
        top,
      );
  } else {
    name = nameField.value.trim();
    const valid = skillNameSchema.safeParse(name);
    if (!valid.success)
      add('bad-name', 'error', 'name', `"${name}" is not a skill name: it ${zodIssueText(valid.error.issues[0]!)}`, nameField.valueRange);
    else if (name !== info.folderName)
      add(
        'bad-name',
        'error',
        'name',
        `"${name}" must equal the name of its folder, "${info.folderName}": rename one of them`,
        nameField.valueRange,
      );
  }
  const descField = field('description');
  const description = typeof descField?.value === 'string' ? descField.value.trim() : '';
  if (!description)
    add(
      'no-description',
      'error',
      'description',
      'has no "description": say what the skill does and when to use it (the agents choose skills by it)',
      descField?.keyRange ?? top,
    );
  else if (description.length > MAX_SKILL_DESCRIPTION)
    add(
      'bad-value',
      'error',
      'description',
      `"description" is ${description.length} characters; the Agent Skills format allows at most ${MAX_SKILL_DESCRIPTION}`,
      descField!.valueRange,
    );
  let allowedTools: string[] | undefined;
  let hidden = false;
  for (const f of fm.fields) {
    if (f.key === 'name' || f.key === 'description' || f.key === 'license' || f.key === 'metadata' || f.key === 'version') continue;
    if (f.key === 'compatibility') {
      if (typeof f.value === 'string' && f.value.length > MAX_SKILL_COMPATIBILITY)
        add(
          'bad-value',
          'warning',
          f.key,
          `"compatibility" is ${f.value.length} characters; the format allows at most ${MAX_SKILL_COMPATIBILITY}`,
          f.valueRange,
        );
    } else if (f.key === 'allowed-tools') {
      allowedTools = toolList(f.value);
      add(
        'field-ignored',
        'information',
        f.key,
        '"allowed-tools" grants nothing here: an agent using this skill keeps its own profile\'s tools, and what needs approval still asks (subagents.approval)',
        f.keyRange,
      );
    } else if (f.key === 'disable-model-invocation') {
      hidden = f.value === true;
    } else if (CLAUDE_ONLY[f.key]) {
      add('field-ignored', 'information', f.key, `"${f.key}" is ignored here: ${CLAUDE_ONLY[f.key]}`, f.keyRange);
    } else {
      add(
        'unknown-field',
        'information',
        f.key,
        `"${f.key}" is not a field of SKILL.md, so it is ignored; the fields are ${SPEC_FIELDS.join(', ')}`,
        f.keyRange,
      );
    }
  }
  if (problems.some((p) => p.severity === 'error')) return { problems };
  const skill: SkillFileContent = {
    name,
    description,
    body: fm.body.trim(),
    ...(allowedTools ? { allowedTools } : {}),
    ...(hidden ? { hidden } : {}),
  };
  return { skill, problems };
}

/** `allowed-tools` as the format writes it (space-separated) or as a YAML list. */
function toolList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  return typeof value === 'string' ? (value.match(/[^\s,(]+(\([^)]*\))?/g) ?? []) : [];
}
