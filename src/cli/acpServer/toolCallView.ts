import { isAbsolute, join } from 'node:path';
import type { ToolCallLocation, ToolKind } from '@agentclientprotocol/sdk';

/** How one of our tool calls reads in an ACP client: its title, its kind (the client's icon) and the files it touches. */
export interface ToolCallView {
  title: string;
  kind: ToolKind;
  locations: ToolCallLocation[];
}

const KINDS: Record<string, ToolKind> = {
  read_file: 'read',
  list_dir: 'read',
  write_file: 'edit',
  edit_file: 'edit',
  run_command: 'execute',
  search_text: 'search',
  find_files: 'search',
  web_fetch: 'fetch',
  // A delegation shows as itself (other); each subagent it starts is a "think" call of its own (sessionUpdates.ts).
};

const VERBS: Record<string, string> = {
  read_file: 'Read',
  list_dir: 'List',
  write_file: 'Write',
  edit_file: 'Edit',
};

function field(input: unknown, name: string): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const value = (input as Record<string, unknown>)[name];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function short(text: string, max = 80): string {
  const line = text.split('\n')[0]!.trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * The view of a call of `tool` with `input` (the model's arguments: hostile text, only ever shown).
 * `by` names the subagent that made it ("worker"), absent for the top run. A path becomes a
 * location under the workspace, so the client can open it.
 */
export function toolCallView(tool: string, input: unknown, root: string, by?: string): ToolCallView {
  const path = field(input, 'path');
  const command = field(input, 'command');
  const pattern = field(input, 'pattern');
  const url = field(input, 'url');
  const task = field(input, 'task');
  let title = tool;
  if (VERBS[tool] && path) title = `${VERBS[tool]} ${short(path)}`;
  else if (command) title = `Run \`${short(command)}\``;
  else if (pattern) title = `${tool === 'find_files' ? 'Find' : 'Search'} ${short(pattern)}`;
  else if (url) title = `Fetch ${short(url)}`;
  else if (task) title = `${tool === 'delegate_task' ? 'Delegate' : 'Start'}: ${short(task)}`;
  return {
    title: by ? `${by} › ${title}` : title,
    kind: KINDS[tool] ?? 'other',
    locations: path ? [{ path: isAbsolute(path) ? path : join(root, path) }] : [],
  };
}
