import { acpContentBlocks } from './acpToolContent';
import { approvalEnd } from './approvalEnd';
import { editDiff, type EditDiff } from './editDiff';
import { parseFileRef, type FileRef } from './fileRef';
import type { ToolCallNode } from './runTree';

/**
 * A tool call opened in the panel: its full input, then its output in the form that reads best:
 * a file's text, a diff for an edit, a terminal block for a command, a list of matches whose
 * paths are links. Plain data; the webview draws it.
 */

export interface InputField {
  name: string;
  value: string;
}

export type DetailBlock =
  | { kind: 'text'; title: string; text: string }
  | { kind: 'terminal'; command: string; text: string; status: string }
  | { kind: 'diff'; diff: EditDiff; path?: string }
  | { kind: 'list'; title: string; items: { text: string; file?: FileRef }[] }
  | { kind: 'error'; text: string }
  | { kind: 'note'; text: string };

export interface ToolDetail {
  input: InputField[];
  output: DetailBlock[];
}

/** What the DOM takes comfortably in one block; the rest is said, not shown. */
const MAX_CHARS = 20_000;
const MAX_ITEMS = 500;

type Fields = Record<string, unknown>;
const fieldsOf = (v: unknown): Fields => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Fields) : {});
const str = (o: Fields, key: string): string => (typeof o[key] === 'string' ? (o[key] as string) : '');

export function capText(text: string): string {
  return text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS)}\n… (${text.length - MAX_CHARS} more characters)` : text;
}

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/** An external agent's own tool calls (acp:edit, acp:execute…): their content is ACP's (acpToolContent.ts). */
const ACP_PREFIX = 'acp:';

/** Input fields shown in the output block instead (the command in the terminal, the edit as a diff). */
const SHOWN_BELOW: Record<string, string[]> = { run_command: ['command'], edit_file: ['oldText', 'newText'], write_file: ['content'] };

function inputFields(call: ToolCallNode): InputField[] {
  if (call.input === undefined) return [];
  if (typeof call.input !== 'object' || call.input === null || Array.isArray(call.input))
    return [{ name: 'input', value: capText(asText(call.input)) }];
  const skip = SHOWN_BELOW[call.tool] ?? (call.tool.startsWith(ACP_PREFIX) ? ['content'] : []);
  return Object.entries(call.input as Fields)
    .filter(([name]) => !skip.includes(name))
    .map(([name, value]) => ({ name, value: capText(asText(value)) }));
}

/** `src/a.ts:12: const total = …` (search_text's match lines): the path and line are a link. */
function matchItem(line: string): { text: string; file?: FileRef } {
  const m = /^([^:\s][^:]*):(\d+):/.exec(line);
  const ref = m ? parseFileRef(m[1]!) : undefined;
  return ref ? { text: line, file: { path: ref.path, line: Number(m![2]) } } : { text: line };
}

function listBlock(title: string, values: unknown[], item: (text: string) => { text: string; file?: FileRef }): DetailBlock[] {
  const items = values.slice(0, MAX_ITEMS).map((v) => item(typeof v === 'string' ? v : asText(v)));
  const more: DetailBlock[] = values.length > MAX_ITEMS ? [{ kind: 'note', text: `… and ${values.length - MAX_ITEMS} more.` }] : [];
  return [{ kind: 'list', title, items }, ...more];
}

function fileItem(text: string): { text: string; file?: FileRef } {
  const ref = parseFileRef(text);
  return ref ? { text, file: ref } : { text };
}

function outputBlocks(call: ToolCallNode): DetailBlock[] {
  const input = fieldsOf(call.input);
  const out = fieldsOf(call.output);
  const blocks: DetailBlock[] = [];
  // Not run because the approval was not given: what the user did (or that no one answered), not the model's instructions.
  const notRun = approvalEnd(call);
  const error = notRun ? '' : typeof call.output === 'string' && call.state === 'error' ? call.output : str(out, 'error');
  const notRunNote: DetailBlock[] = notRun ? [{ kind: 'note', text: `Not run: ${notRun}. Nothing was done.` }] : [];
  switch (call.tool) {
    case 'run_command': {
      if (notRun) return [{ kind: 'terminal', command: str(input, 'command'), text: '', status: '' }, ...notRunNote];
      const exit = typeof out.exitCode === 'number' ? `exit ${out.exitCode}` : call.state === 'running' ? 'running…' : '';
      const text = str(out, 'output') || (typeof call.output === 'string' ? call.output : '');
      blocks.push({
        kind: 'terminal',
        command: str(input, 'command'),
        text: capText(text),
        status: error && !str(out, 'output') ? '' : exit,
      });
      if (error && str(out, 'output')) blocks.push({ kind: 'error', text: error });
      if (str(out, 'note')) blocks.push({ kind: 'note', text: str(out, 'note') });
      return blocks;
    }
    case 'edit_file':
      blocks.push({ kind: 'diff', diff: editDiff(str(input, 'oldText'), str(input, 'newText')) });
      break;
    case 'write_file':
      blocks.push({ kind: 'text', title: 'Content', text: capText(str(input, 'content')) });
      break;
  }
  if (notRun) return [...blocks, ...notRunNote];
  if (error) return [...blocks, { kind: 'error', text: capText(error) }];
  if (call.tool.startsWith(ACP_PREFIX)) {
    const acp = acpContentBlocks(call.input, call.output);
    if (acp) {
      const raw = out.rawOutput === undefined ? [] : [{ kind: 'text' as const, title: 'Output', text: capText(asText(out.rawOutput)) }];
      return [...blocks, ...acp, ...raw];
    }
  }
  if (call.output === undefined) return blocks;
  const shaped = shapedOutput(call.tool, out);
  // A tool (or a thread from before) whose output is not the shape expected: shown as it is.
  if (shaped === undefined) blocks.push({ kind: 'text', title: 'Output', text: capText(asText(call.output)) });
  else blocks.push(...shaped);
  if (str(out, 'note')) blocks.push({ kind: 'note', text: str(out, 'note') });
  return blocks;
}

/** The output of a tool this panel knows, in its best form; undefined when it is not that shape. */
function shapedOutput(tool: string, out: Fields): DetailBlock[] | undefined {
  switch (tool) {
    case 'read_file':
      return typeof out.content === 'string'
        ? [
            {
              kind: 'text',
              title: `Lines ${out.startLine ?? '?'}–${out.endLine ?? '?'} of ${out.totalLines ?? '?'}`,
              text: capText(out.content),
            },
          ]
        : undefined;
    case 'search_text':
      return Array.isArray(out.matches) ? listBlock('Matches', out.matches, matchItem) : undefined;
    case 'find_files':
      return Array.isArray(out.files) ? listBlock('Files', out.files, fileItem) : undefined;
    case 'list_dir':
      return Array.isArray(out.entries) ? listBlock('Entries', out.entries, (text) => ({ text })) : undefined;
    case 'ask_user':
      return str(out, 'answer') ? [{ kind: 'text', title: 'Your answer', text: str(out, 'answer') }] : undefined;
    case 'edit_file':
    case 'write_file':
      // The input said it all (the diff, the content); the output is where and how much.
      return typeof out.path === 'string' ? [] : undefined;
    default:
      return undefined;
  }
}

export function toolDetail(call: ToolCallNode): ToolDetail {
  return { input: inputFields(call), output: outputBlocks(call) };
}
