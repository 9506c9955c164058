import { isAbsolute, join } from 'node:path';

/**
 * A call of ours as Claude Code would have made it: the tool's name (`Bash`, `Read`…) and its input
 * under Claude Code's field names (`command`, `file_path`, `old_string`/`new_string`, `content`,
 * `pattern`), so hooks written for Claude Code read what they expect. File paths are absolute, as
 * Claude Code's are. A tool Claude Code has no name for keeps ours (an MCP tool already has its form).
 */
export interface ClaudeToolCall {
  /** Every name a matcher may use for it, Claude Code's first. */
  names: string[];
  toolName: string;
  toolInput: Record<string, unknown>;
}

const CLAUDE_NAMES: Readonly<Record<string, string[]>> = {
  run_command: ['Bash'],
  read_file: ['Read'],
  write_file: ['Write'],
  edit_file: ['Edit', 'MultiEdit'],
  find_files: ['Glob'],
  search_text: ['Grep'],
  list_dir: ['LS'],
  web_fetch: ['WebFetch'],
  todo_write: ['TodoWrite'],
  ask_user: ['AskUserQuestion'],
  delegate_task: ['Task', 'Agent'],
};

export function claudeToolCall(tool: string, input: unknown, root: string): ClaudeToolCall {
  const claude = CLAUDE_NAMES[tool] ?? [];
  const record = isRecord(input) ? input : {};
  return { names: [...claude, tool], toolName: claude[0] ?? tool, toolInput: claudeInput(tool, record, root) };
}

function claudeInput(tool: string, input: Record<string, unknown>, root: string): Record<string, unknown> {
  const abs = (p: unknown) => (typeof p === 'string' ? (isAbsolute(p) ? p : join(root, p)) : p);
  const defined = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  switch (tool) {
    case 'run_command':
      return defined({ command: input.command, timeout: input.timeoutMs });
    case 'read_file': {
      const start = typeof input.startLine === 'number' ? input.startLine : undefined;
      const end = typeof input.endLine === 'number' ? input.endLine : undefined;
      return defined({ file_path: abs(input.path), offset: start, limit: end !== undefined ? end - (start ?? 1) + 1 : undefined });
    }
    case 'write_file':
      return defined({ file_path: abs(input.path), content: input.content });
    case 'edit_file':
      return defined({ file_path: abs(input.path), old_string: input.oldText, new_string: input.newText });
    case 'find_files':
      return defined({ pattern: input.pattern, path: root });
    case 'search_text':
      return defined({ pattern: input.pattern, glob: input.glob, path: root, '-i': input.caseSensitive === true ? undefined : true });
    case 'list_dir':
      return defined({ path: abs(input.path) });
    case 'web_fetch':
      return defined({ url: input.url });
    case 'delegate_task': {
      const agents = Array.isArray(input.agents) ? input.agents : [];
      return defined({ ...input, subagent_type: input.agent ?? agents[0], prompt: input.task, description: input.task });
    }
    default:
      return input;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
