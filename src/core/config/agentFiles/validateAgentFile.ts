import { basename } from 'node:path';
import { profileInputSchema, profileNameSchema, type ProfileOrigin } from '../profiles/profile';
import type { ProblemFix, ProfileProblem, TextRange } from '../profiles/profileProblem';
import { fieldLabel, zodIssueText } from '../profiles/zodIssueText';
import { KNOWN_FIELD_NAMES } from './agentFields';
import { readClaudeFields } from './claudeFields';
import { readCopilotFields } from './copilotFields';
import { FileCheck, type AgentFileInfo } from './fileCheck';
import { readFrontMatter, type FrontMatter } from './frontMatter';
import { ownMcpServerNames } from './mcpServerFields';
import { readNativeFields } from './nativeFields';
import { slugify } from './nearest';

export type { AgentFileInfo } from './fileCheck';

/** What the validator makes of one agent file. */
export interface AgentFileResult {
  info: AgentFileInfo;
  /** The agent's id (for a file with no usable name, what the file name suggests). */
  id: string;
  /** A profile input the profile schema accepts; absent when an error keeps the file out. */
  input?: Record<string, unknown>;
  origin: ProfileOrigin;
  /** Everything found, errors first in the file's order; each at its place in the file. */
  problems: ProfileProblem[];
  frontMatter?: FrontMatter;
}

export interface AgentFileContext {
  /** Configured MCP servers by name: their tools are kept, others are a note. */
  mcpServers?: readonly string[];
}

const READER_OF = { native: 'VS Code and Claude Code read', claude: 'Claude Code reads', copilot: 'VS Code reads' } as const;

/** The file name without `.agent.md` or `.md`. */
export function fileBaseName(path: string): string {
  return basename(path).replace(/\.agent\.md$|\.md$/i, '');
}

/**
 * The one validator of agent files: the extension's profile loader, `subagents profiles validate`
 * and the language server all read files through it, so they report the same problems at the same
 * places. A file becomes a profile input, or errors that keep it out; either way with the notes on
 * everything it says that is not honoured here. Checks across files (duplicates, `agents` that name
 * no agent, cycles, models) follow in the profile set.
 */
export function validateAgentFile(text: string, info: AgentFileInfo, context: AgentFileContext = {}): AgentFileResult {
  const base = fileBaseName(info.path);
  const read = readFrontMatter(text, KNOWN_FIELD_NAMES);
  const fallbackId = slugify(base);
  if (!read.ok && !read.partial) {
    const problem: ProfileProblem = {
      source: info.source,
      name: fallbackId,
      field: '',
      message: read.message,
      severity: 'error',
      code: read.code,
      path: info.path,
      range: read.range,
    };
    return { info, id: fallbackId, origin: { path: info.path, ranges: {} }, problems: [problem] };
  }
  const fm = read.ok ? read.frontMatter : read.partial!;
  const check = new FileCheck(info, fm);
  // A YAML error keeps the file out, and its other problems are still said: one fix at a time is slow.
  if (!read.ok) check.add(read.code, 'error', '', read.message, read.range);
  check.ranges[''] = check.fileRange;
  const input: Record<string, unknown> = {};
  const id = readId(check, base, input);
  check.id = id ?? fallbackId;
  readDescription(check, input);
  // The file's own servers count as configured for its own tools list.
  const mcp = [...(context.mcpServers ?? []), ...ownMcpServerNames(fm)];
  if (info.dialect === 'claude') readClaudeFields(check, input, mcp);
  else if (info.dialect === 'copilot') readCopilotFields(check, input, mcp);
  else readNativeFields(check, input, mcp);
  const body = fm.body.trim();
  if (body) input['instructions'] = body;
  if (fm.reader === 'lenient' && fm.strictError) lenientNote(check, fm.strictError.range, fm.strictError.message);

  let accepted = id !== undefined && !check.problems.some((p) => p.severity === 'error');
  if (accepted) {
    const parsed = profileInputSchema.safeParse(input);
    if (!parsed.success) {
      accepted = false;
      for (const issue of parsed.error.issues) {
        const field = issue.path.map(String).join('.');
        const range =
          check.ranges[field] ?? check.ranges[String(issue.path[0])] ?? check.field(String(issue.path[0]))?.keyRange ?? check.fileRange;
        check.add('bad-value', 'error', field, `${fieldLabel(issue.path)} ${zodIssueText(issue)}`, range);
      }
    }
  }
  for (const p of check.problems) p.name = check.id;
  check.problems.sort((a, b) => rank(a) - rank(b));
  return {
    info,
    id: check.id,
    ...(accepted ? { input } : {}),
    origin: { path: info.path, ranges: check.ranges },
    problems: check.problems,
    frontMatter: fm,
  };
}

const rank = (p: ProfileProblem): number => (p.severity === 'error' ? 0 : p.severity === 'warning' ? 1 : 2);

/** The id by the format's rule; undefined when the file has none it can use (an error says why). */
function readId(check: FileCheck, base: string, input: Record<string, unknown>): string | undefined {
  const { dialect } = check.info;
  const nameField = check.field('name');
  const name = typeof nameField?.value === 'string' ? nameField.value.trim() : undefined;
  if (nameField) check.ranges['name'] = nameField.valueRange;
  if (dialect === 'copilot') {
    // Copilot: the file name is the id, `name:` is what people see.
    const id = slugify(base);
    if (id !== base)
      check.add(
        'id-from-name',
        'information',
        '',
        `its id here is "${id}" (the file name "${base}" made a slug); the supervisor delegates to it by that id`,
        check.fileRange,
      );
    if (name && name !== id) input['displayName'] = name;
    return id;
  }
  if (dialect === 'claude') {
    if (!name) {
      const fix: ProblemFix = { title: `Add "name: ${slugify(base)}"`, newText: `name: ${slugify(base)}\n`, range: at(1) };
      check.add(
        'no-name',
        'error',
        'name',
        'has no "name", which Claude Code requires (it is the agent\'s id): add "name: <id>" to the front matter',
        nameField?.keyRange ?? check.fileRange,
        [fix],
      );
      return undefined;
    }
    const id = slugify(name);
    if (id !== name)
      check.add(
        'id-from-name',
        'information',
        'name',
        `its id here is "${id}" ("${name}" made a slug: lowercase letters, digits and dashes)`,
        nameField!.valueRange,
      );
    return id;
  }
  const own = name ?? base;
  if (profileNameSchema.safeParse(own).success) return own;
  const slug = slugify(own);
  if (name !== undefined) {
    check.add(
      'bad-name',
      'error',
      'name',
      `"${own}" is not a valid agent name: use a slug (lowercase letters, digits and dashes, starting with a letter), such as "${slug}"`,
      nameField!.valueRange,
      [{ title: `Use "${slug}"`, newText: slug }],
    );
    return undefined;
  }
  check.add('id-from-name', 'information', '', `its id here is "${slug}" (the file name "${base}" made a slug)`, check.fileRange);
  return slug;
}

function readDescription(check: FileCheck, input: Record<string, unknown>): void {
  const field = check.field('description');
  const value = field?.value;
  if (typeof value === 'string' && value.trim() !== '') {
    input['description'] = value.trim();
    check.ranges['description'] = field!.valueRange;
    return;
  }
  const after = check.field('name')?.keyRange.start.line ?? 0;
  const fix: ProblemFix = field
    ? { title: 'Add a description', newText: 'Describe what this agent does and when to use it', range: field.valueRange }
    : { title: 'Add a description', newText: 'description: Describe what this agent does and when to use it\n', range: at(after + 1) };
  const also = check.info.dialect === 'copilot' ? ' (Copilot does not require one, but the supervisor needs it to choose agents)' : '';
  check.add(
    'no-description',
    'error',
    'description',
    `has no description${also}: add "description:" saying what this agent is for and when to use it`,
    field?.keyRange ?? check.fileRange,
    [fix],
  );
}

/** Says that (and why) the line reader read the file, and offers to make the offending value strict YAML. */
function lenientNote(check: FileCheck, range: TextRange, strictMessage: string): void {
  const field = check.frontMatter.fields.find(
    (f) => f.keyRange.start.line <= range.start.line && f.valueRange.end.line >= range.start.line,
  );
  const fixes: ProblemFix[] = [];
  if (field && typeof field.value === 'string' && field.valueRange.start.line === field.valueRange.end.line) {
    fixes.push({ title: `Quote the "${field.key}" value`, newText: JSON.stringify(field.value), range: field.valueRange });
  }
  const quote = field ? ` Quote the "${field.key}" value to make it strict YAML.` : '';
  check.add(
    'lenient-front-matter',
    'information',
    field?.key ?? '',
    `its front matter is not strict YAML (${strictMessage}), so it was read line by line, as ${READER_OF[check.info.dialect]} such files: a line that starts with a field name and a colon starts that field, and the rest of the line, colons and all, is its value.${quote}`,
    range,
    fixes,
  );
}

const at = (line: number): TextRange => ({ start: { line, character: 0 }, end: { line, character: 0 } });
