import type { ProblemFix } from '../profiles/profileProblem';
import type { AgentFileDialect } from './agentFields';
import type { FileCheck, ListItem } from './fileCheck';
import type { FrontMatterField } from './frontMatter';
import { nearest } from './nearest';
import { renamedTool } from './renamedTools';
import {
  CLAUDE_TOOLS,
  COPILOT_TOOLS,
  COPILOT_TOOL_SETS,
  OUR_TOOLS,
  isOurToolName,
  mapClaudeTool,
  mapCopilotTool,
  type ToolMapping,
} from './toolNames';

export interface ToolsRead {
  tools: string[];
  /** From Claude Code's `Task(a, b)`: whom the agent may delegate to. */
  agents?: string[];
}

/** A foreign name, mapped: Claude Code's table first in Claude files, Copilot's in Copilot files. */
function mapName(name: string, dialect: AgentFileDialect): ToolMapping {
  // People mix the two (a Copilot file with "Glob", a Claude file with "search"): the other table second.
  const [first, second] = dialect === 'copilot' ? [mapCopilotTool, mapClaudeTool] : [mapClaudeTool, mapCopilotTool];
  const mapped = first(name);
  return mapped.kind === 'unknown' ? second(name) : mapped;
}

/** Where an unknown name would come from in its own tool, for the note. */
const ELSEWHERE = {
  claude: 'in Claude Code it would come from a plugin or an MCP server',
  copilot: 'in Copilot it would come from an MCP server or an extension',
  native:
    'our tools are read_file, list_dir, find_files, search_text, write_file, edit_file, run_command, web_fetch, todo_write, ask_user, open_file, the delegation tools and mcp__<server>__<tool>',
} as const;

/** A name an editor tool (vscode.lm.tools) can have, as model providers accept tool names. */
const EDITOR_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Every name a person might mean: ours, then the foreign ones, for "did you mean". */
const CANDIDATES = [...OUR_TOOLS, ...Object.keys(CLAUDE_TOOLS), ...Object.keys(COPILOT_TOOL_SETS), ...Object.keys(COPILOT_TOOLS)];

/**
 * Reads `tools` or `disallowedTools`. Foreign names become ours by the one table (toolNames.ts);
 * what has no equivalent yet, an MCP server that is not configured, an unknown name: each a note
 * at the item, and left out. In our own files a foreign name still works, with a warning and a
 * quick fix to our name. A list that names tools of which none is usable is a warning.
 */
export function readTools(check: FileCheck, field: FrontMatterField, dialect: AgentFileDialect, mcpServers: readonly string[]): ToolsRead {
  const items = check.items(field);
  const tools = new Set<string>();
  let agents: string[] | undefined;
  const deny = field.key === 'disallowedTools';
  items.forEach((item, index) => {
    check.ranges[`${field.key}.${index}`] = item.range;
    if (dialect === 'native' && isOurToolName(item.value)) {
      if (item.value.startsWith('mcp__') && !mcpNote(check, field.key, item, item.value, mcpServers)) return;
      tools.add(item.value);
      return;
    }
    const mapping = mapName(item.value, dialect);
    const what = `"${item.value}"`;
    switch (mapping.kind) {
      case 'ours': {
        for (const t of mapping.tools) tools.add(t);
        if (mapping.agents?.length) agents = [...(agents ?? []), ...mapping.agents];
        const renamed = renamedTool(item.value);
        if (renamed) {
          check.add(
            'tool-renamed',
            'warning',
            field.key,
            `${what} was renamed: it is now ${renamed.how}, and is read as ${renamed.tools.join(', ')}`,
            item.range,
            [replaceItem(check, field, item, renamed.tools)],
          );
        } else if (dialect === 'native') {
          check.add(
            'tool-foreign',
            'warning',
            field.key,
            `${what} is not one of our tool names; it is read as ${mapping.tools.join(', ')}`,
            item.range,
            [replaceItem(check, field, item, mapping.tools)],
          );
        } else if (mapping.approximate) {
          check.add(
            'tool-approximate',
            'information',
            field.key,
            `${what} is mapped to ${mapping.tools.join(', ')}: ${mapping.approximate}`,
            item.range,
          );
        }
        return;
      }
      case 'mcp':
        if (mcpNote(check, field.key, item, mapping.name, mcpServers)) tools.add(mapping.name);
        return;
      case 'later':
        check.add(
          'tool-later',
          'information',
          field.key,
          `${what} is left out: ${mapping.what}${deny ? '' : '; the agent works without it'}`,
          item.range,
        );
        return;
      case 'none':
        check.add('tool-unsupported', 'information', field.key, `${what} is left out: ${mapping.why}`, item.range);
        return;
      case 'unknown': {
        const guess = nearest(item.value, CANDIDATES);
        const fixes: ProblemFix[] = [];
        let hint = '';
        if (guess) {
          const guessed = mapName(guess, dialect);
          const target = OUR_TOOLS.includes(guess) ? [guess] : guessed.kind === 'ours' ? [...guessed.tools] : [];
          if (target.length) {
            hint = `; did you mean "${guess}"?`;
            fixes.push(replaceItem(check, field, item, dialect === 'native' ? target : [guess]));
          }
        }
        if (!hint && EDITOR_TOOL_NAME.test(item.value)) {
          // Another extension's tool or VS Code's MCP tool (vscode.lm.tools): only the editor knows them, at run time.
          tools.add(item.value);
          check.add(
            'tool-editor',
            'information',
            field.key,
            `${what} is not one of our tools: it is offered when the editor has a tool of that name (another extension's, or an MCP server of VS Code; in the extension only), and otherwise left out`,
            item.range,
          );
          return;
        }
        const severity = hint || dialect === 'native' ? 'warning' : 'information';
        check.add(
          'tool-unknown',
          severity,
          field.key,
          `${what} is not a tool we know, so it is left out${hint || ` (${ELSEWHERE[dialect]})`}`,
          item.range,
          fixes,
        );
        return;
      }
    }
  });
  // A kept MCP tool is usable: its server is configured, or the file declares it itself.
  if (!deny && items.length > 0 && ![...tools].some((t) => OUR_TOOLS.includes(t) || t.startsWith('mcp__'))) {
    check.add(
      'no-usable-tools',
      'warning',
      field.key,
      'none of these tools is available here, so the agent gets no tools at all; add one of ours (read_file, search_text, edit_file, run_command, …) or remove "tools" to give it every tool',
      field.keyRange,
    );
  }
  return { tools: [...tools], ...(agents ? { agents } : {}) };
}

/** An MCP tool: kept when its server is configured, otherwise a note (and left out). */
function mcpNote(check: FileCheck, key: string, item: ListItem, name: string, servers: readonly string[]): boolean {
  const server = /^mcp__(.+?)__/.exec(name)?.[1] ?? name;
  if (servers.includes(server)) return true;
  check.add(
    'tool-mcp',
    'information',
    key,
    `"${item.value}" is a tool of the MCP server "${server}" (${name} here), and no MCP server "${server}" is configured, so it is left out`,
    item.range,
  );
  return false;
}

/** A quick fix that puts our names in place of a list item, in the list's own style. */
function replaceItem(check: FileCheck, field: FrontMatterField, item: ListItem, names: readonly string[]): ProblemFix {
  const title = `Use ${names.join(', ')}`;
  if (names.length === 1 || !field.items) return { title, newText: names.join(', ') };
  const { positions } = check.frontMatter;
  const line = positions.lineText(item.range.start.line);
  const prefix = line.slice(0, item.range.start.character);
  // A block list item ("  - edit") gets its siblings on lines of their own.
  if (/^\s*-\s*$/.test(prefix)) return { title, newText: names.join(`\n${prefix}`) };
  return { title, newText: names.join(', ') };
}
