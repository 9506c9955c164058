import { readFileSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { mapCopilotTool } from '../agentFiles/toolNames';
import { readFrontMatter } from '../agentFiles/frontMatter';
import type { ProfileProblem } from '../profiles/profileProblem';
import { COMMAND_NAME, MAX_PROMPT_FILE_BYTES, type PromptCommand } from './promptCommand';

interface CommandFolder {
  dir: string;
  label: string;
  suffix: string;
  format: PromptCommand['format'];
  scope: 'user' | 'workspace';
}

const KEYS = new Set([
  'description',
  'name',
  'agent',
  'mode',
  'model',
  'tools',
  'argument-hint',
  'allowed-tools',
  'disable-model-invocation',
]);

/**
 * The prompt files that are slash commands: the user's `~/.claude/commands` first (as in Claude
 * Code, the user's own wins a name), then, in a trusted workspace, `.claude/commands/*.md` and
 * `.github/prompts/*.prompt.md`. A file that links out of its folder's root, or is larger than
 * MAX_PROMPT_FILE_BYTES, is left out with a warning.
 */
export function readPromptFiles(sources: { root?: string | undefined; home?: string | undefined; trusted: boolean }): {
  commands: PromptCommand[];
  problems: ProfileProblem[];
} {
  const folders: CommandFolder[] = [];
  if (sources.home)
    folders.push({
      dir: join(sources.home, '.claude/commands'),
      label: '~/.claude/commands',
      suffix: '.md',
      format: 'claude',
      scope: 'user',
    });
  if (sources.root && sources.trusted) {
    folders.push({
      dir: join(sources.root, '.claude/commands'),
      label: '.claude/commands',
      suffix: '.md',
      format: 'claude',
      scope: 'workspace',
    });
    folders.push({
      dir: join(sources.root, '.github/prompts'),
      label: '.github/prompts',
      suffix: '.prompt.md',
      format: 'vscode',
      scope: 'workspace',
    });
  }
  const commands: PromptCommand[] = [];
  const problems: ProfileProblem[] = [];
  const realRoot = sources.root ? real(sources.root) : undefined;
  for (const folder of folders) {
    let names: string[];
    try {
      names = readdirSync(folder.dir)
        .filter((n) => n.endsWith(folder.suffix))
        .sort();
    } catch {
      continue;
    }
    for (const file of names) {
      const name = file.slice(0, -folder.suffix.length);
      const path = join(folder.dir, file);
      const source = `${folder.label}/${file}`;
      const warn = (message: string) =>
        problems.push({ source, name, field: '', message, severity: 'warning', code: 'field-ignored', path });
      if (!COMMAND_NAME.test(name)) {
        warn(`is not a command: "/${name}" is not a command name (letters, digits, dots, dashes, underscores)`);
        continue;
      }
      const at = real(path);
      if (!at || !statSync(at).isFile()) continue;
      const within = folder.scope === 'workspace' ? realRoot : real(folder.dir);
      if (!within || !at.startsWith(within + sep)) {
        warn(`is a link to a file outside ${folder.scope === 'workspace' ? 'the workspace' : folder.label}, so it is not a command`);
        continue;
      }
      if (statSync(at).size > MAX_PROMPT_FILE_BYTES) {
        warn(`is larger than the ${MAX_PROMPT_FILE_BYTES / 1024} KB a prompt file may have, so it is not a command`);
        continue;
      }
      if (commands.some((c) => c.name === name)) {
        warn(`is not used: /${name} is already ${commands.find((c) => c.name === name)!.source}`);
        continue;
      }
      commands.push(parsePromptFile(readFileSync(at, 'utf8'), { name, source, path, format: folder.format }));
    }
  }
  return { commands, problems };
}

/** One prompt file's front matter and body; a file with no front matter is all body (Claude Code allows it). */
export function parsePromptFile(text: string, info: Pick<PromptCommand, 'name' | 'source' | 'path' | 'format'>): PromptCommand {
  const read = readFrontMatter(text, KEYS);
  if (!read.ok) return { ...info, body: text.replace(/^\uFEFF/, '').trim() };
  const value = (key: string): string | undefined => {
    const v = read.frontMatter.fields.find((f) => f.key === key)?.value;
    return typeof v === 'string' && v.trim() ? v.trim() : undefined;
  };
  const list = (key: string): string[] | undefined => {
    const v = read.frontMatter.fields.find((f) => f.key === key)?.value;
    if (Array.isArray(v)) return v.map(String);
    return typeof v === 'string' ? (v.match(/[^\s,(]+(\([^)]*\))?/g) ?? []) : undefined;
  };
  const tools = list('tools');
  const allowed = list('allowed-tools');
  const description = value('description');
  const hint = value('argument-hint');
  const agent = value('agent') ?? value('mode');
  const model = value('model');
  return {
    ...info,
    body: read.frontMatter.body.trim(),
    ...(description ? { description } : {}),
    ...(hint ? { argumentHint: hint } : {}),
    ...(agent ? { agent } : {}),
    ...(model ? { model } : {}),
    ...(tools ? { tools: ourTools(tools) } : {}),
    ...(allowed ? { allowedTools: allowed } : {}),
  };
}

/** VS Code's tool and tool-set names in ours; a name we cannot map gives nothing (the turn is never widened). */
function ourTools(names: readonly string[]): string[] {
  return [
    ...new Set(
      names.flatMap((n) => {
        const m = mapCopilotTool(n);
        return m.kind === 'ours' ? [...m.tools] : m.kind === 'mcp' ? [m.name] : [];
      }),
    ),
  ];
}

function real(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}
