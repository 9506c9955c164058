import { parse as parseYaml } from 'yaml';
import { z } from 'zod';

/** Where agent files live in a workspace, lowest precedence first: imports, then our own folder. */
export const AGENT_FILE_SOURCES = [
  { dir: '.claude/agents', suffix: '.md', dialect: 'claude' },
  { dir: '.github/agents', suffix: '.agent.md', dialect: 'copilot' },
  { dir: '.vscode/agents', suffix: '.md', dialect: 'native' },
] as const;
export type AgentFileDialect = (typeof AGENT_FILE_SOURCES)[number]['dialect'];

/** Tool names of Claude Code and Copilot agents, as our built-in tools. Unknown names are dropped. */
const TOOL_ALIASES: Record<string, string> = {
  read: 'read_file',
  write: 'write_file',
  edit: 'edit_file',
  multiedit: 'edit_file',
  grep: 'search_text',
  glob: 'find_files',
  ls: 'list_dir',
  bash: 'run_command',
  codebase: 'search_text',
  search: 'search_text',
  readfile: 'read_file',
  editfiles: 'edit_file',
  runcommands: 'run_command',
  runinterminal: 'run_command',
};

const frontMatterSchema = z.looseObject({
  name: z.string().optional(),
  description: z.string().optional(),
  tools: z.union([z.string(), z.array(z.string())]).optional(),
  model: z.string().optional(),
});

export interface ParsedAgentFile {
  name: string;
  /** A profile input for mergeProfiles: validated there, like settings. */
  profile: Record<string, unknown>;
  /** Things that were ignored on import, each a sentence. */
  notes: string[];
}

/**
 * Reads one agent file: YAML front matter between `---` lines, the body as instructions. Our own
 * files (.vscode/agents) take every profile field; Claude Code and Copilot files are imported by
 * mapping what has a meaning here (their tool names, a model spec) and noting what is dropped.
 * Throws an Error with a message that names the problem; the caller adds the file.
 */
export function parseAgentFile(text: string, fileName: string, dialect: AgentFileDialect): ParsedAgentFile {
  const match = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)([\s\S]*)$/.exec(text.replace(/^\uFEFF/, ''));
  if (!match) throw new Error('has no front matter: start the file with a "---" line, the YAML fields, and another "---" line');
  let data: unknown;
  try {
    data = parseYaml(match[1]!) ?? {};
  } catch (error) {
    throw new Error(`has front matter that is not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new Error('has front matter that is not a YAML mapping of fields');
  const body = match[2]!.trim();
  const baseName = fileName.replace(/\.agent\.md$|\.md$/i, '');
  if (dialect === 'native') {
    const { name, ...fields } = data as Record<string, unknown>;
    return { name: typeof name === 'string' ? name : baseName, profile: { ...fields, ...(body ? { instructions: body } : {}) }, notes: [] };
  }
  const fm = frontMatterSchema.parse(data);
  const notes: string[] = [];
  const profile: Record<string, unknown> = { description: fm.description ?? '', ...(body ? { instructions: body } : {}) };
  if (fm.tools !== undefined) {
    const names = typeof fm.tools === 'string' ? fm.tools.split(',') : fm.tools;
    const mapped = new Set<string>();
    for (const raw of names.map((n) => n.trim()).filter(Boolean)) {
      const ours = TOOL_ALIASES[raw.toLowerCase().replace(/[^a-z]/g, '')];
      if (ours) mapped.add(ours);
      else notes.push(`tool "${raw}" has no equivalent here and was left out`);
    }
    profile['tools'] = [...mapped];
  }
  if (fm.model !== undefined && fm.model !== 'inherit') {
    if (fm.model.includes(':')) profile['model'] = fm.model;
    else notes.push(`model "${fm.model}" is not a model spec here, so the parent's model is used`);
  }
  return { name: fm.name ?? baseName, profile, notes };
}
