import { approvalEnd } from './approvalEnd';
import { editDiff } from './editDiff';
import { parseFileRef, type FileRef } from './fileRef';
import { oneLine } from './oneLine';
import type { ToolCallNode } from './runTree';
import { formatDuration } from './usage';

/**
 * How a tool call reads in one line, as an editor would put it: "Read src/invoice.ts lines 1–80",
 * "Ran `npm test` · exit 1 · 2.3 s", "Edited src/money.ts +3 −1", "Searched for `TODO` · 12
 * matches". The summary is parts, so the panel can make the file a link and the command code; the
 * activity is the same call in the present ("reading src/invoice.ts"), for a run's live line.
 */

export type SummaryPart = string | { code: string } | { file: FileRef };

type Fields = Record<string, unknown>;

interface ToolWords {
  /** The finished (or failed) call. */
  done(input: Fields, output: Fields, call: ToolCallNode): SummaryPart[];
  /** What the call is doing while it runs, lower case. */
  doing(input: Fields): string;
}

const str = (o: Fields, key: string): string | undefined => (typeof o[key] === 'string' && o[key] !== '' ? (o[key] as string) : undefined);
const num = (o: Fields, key: string): number | undefined => (typeof o[key] === 'number' ? (o[key] as number) : undefined);
const list = (o: Fields, key: string): unknown[] | undefined => (Array.isArray(o[key]) ? (o[key] as unknown[]) : undefined);
const fields = (v: unknown): Fields => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Fields) : {});
const count = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** A path part: a link when it reads as a file, else the path as code. */
function file(path: string | undefined, line?: number): SummaryPart {
  if (!path) return 'a file';
  const ref = parseFileRef(path);
  if (!ref) return { code: path };
  return line === undefined ? { file: ref } : { file: { path: ref.path, line } };
}

const agents = (input: Fields): string => {
  const named = list(input, 'agents') ?? list(input, 'tasks')?.map((t) => fields(t).agent) ?? [input.agent];
  const names = named.filter((a): a is string => typeof a === 'string');
  return names.length ? names.join(', ') : 'a subagent';
};

const lines = (text: string | undefined): number => (text ? text.replace(/\n$/, '').split('\n').length : 0);
const lineRange = (start: number | undefined, end: number | undefined): string =>
  start !== undefined && end !== undefined ? ` lines ${start}–${end}` : '';

const WORDS: Record<string, ToolWords> = {
  read_file: {
    done: (i, o) => {
      const start = num(o, 'startLine') ?? num(i, 'startLine');
      const end = num(o, 'endLine') ?? num(i, 'endLine');
      return ['Read ', file(str(o, 'path') ?? str(i, 'path'), start), lineRange(start, end)];
    },
    doing: (i) => `reading ${str(i, 'path') ?? 'a file'}${lineRange(num(i, 'startLine'), num(i, 'endLine'))}`,
  },
  write_file: {
    done: (i, o) => [
      o.created === true ? 'Created ' : 'Wrote ',
      file(str(o, 'path') ?? str(i, 'path')),
      ` · ${count(lines(str(i, 'content')), 'line')}`,
    ],
    doing: (i) => `writing ${str(i, 'path') ?? 'a file'}`,
  },
  edit_file: {
    done: (i, o) => {
      const diff = editDiff(str(i, 'oldText') ?? '', str(i, 'newText') ?? '');
      return ['Edited ', file(str(o, 'path') ?? str(i, 'path'), num(o, 'line')), ` +${diff.added} −${diff.removed}`];
    },
    doing: (i) => `editing ${str(i, 'path') ?? 'a file'}`,
  },
  run_command: {
    done: (i, o, call) => {
      const parts: SummaryPart[] = ['Ran ', { code: oneLine(str(i, 'command') ?? '', 80) }];
      const exit = num(o, 'exitCode');
      if (exit !== undefined) parts.push(` · exit ${exit}`);
      if (call.startedAt !== undefined && call.finishedAt !== undefined)
        parts.push(` · ${formatDuration(call.finishedAt - call.startedAt)}`);
      return parts;
    },
    doing: (i) => `running ${oneLine(str(i, 'command') ?? 'a command', 60)}`,
  },
  search_text: {
    done: (i, o) => {
      const parts: SummaryPart[] = ['Searched for ', { code: oneLine(str(i, 'pattern') ?? '', 60) }];
      const glob = str(i, 'glob');
      if (glob) parts.push(' in ', { code: glob });
      const matches = list(o, 'matches');
      if (matches) parts.push(` · ${count(matches.length, 'match', 'matches')}`);
      return parts;
    },
    doing: (i) => `searching for ${oneLine(str(i, 'pattern') ?? 'text', 60)}`,
  },
  find_files: {
    done: (i, o) => {
      const files = list(o, 'files');
      return ['Found files ', { code: str(i, 'pattern') ?? '' }, ...(files ? [` · ${count(files.length, 'file')}`] : [])];
    },
    doing: (i) => `finding files ${str(i, 'pattern') ?? ''}`.trim(),
  },
  list_dir: {
    done: (i, o) => {
      const entries = list(o, 'entries');
      return [
        'Listed ',
        { code: str(o, 'path') ?? str(i, 'path') ?? '.' },
        ...(entries ? [` · ${count(entries.length, 'entry', 'entries')}`] : []),
      ];
    },
    doing: (i) => `listing ${str(i, 'path') ?? 'a folder'}`,
  },
  open_file: {
    done: (i) => ['Opened ', file(str(i, 'path'), num(i, 'line')), ' in the editor'],
    doing: (i) => `opening ${str(i, 'path') ?? 'a file'}`,
  },
  ask_user: {
    done: (i, o) => [`Asked you: ${oneLine(str(i, 'question') ?? '', 80)}`, ...(str(o, 'answer') ? [' · answered'] : [])],
    doing: () => 'waiting for your answer',
  },
  install_package: {
    done: (i) => ['Installed ', { code: str(i, 'name') ?? '' }, ` with ${str(i, 'manager') ?? 'a package manager'}`],
    doing: (i) => `installing ${str(i, 'name') ?? 'a package'}`,
  },
  install_extension: {
    done: (i) => ['Installed the extension ', { code: str(i, 'id') ?? '' }],
    doing: (i) => `installing the extension ${str(i, 'id') ?? ''}`.trim(),
  },
  // A skill is looked up by name; with `file`, one of its own files is read (src/core/tools/builtin/loadSkill.ts).
  load_skill: {
    done: (i) => {
      const name: SummaryPart = { code: str(i, 'name') ?? '' };
      const inFile = str(i, 'file');
      return inFile ? ['Read ', { code: inFile }, ' of the skill ', name] : ['Loaded the skill ', name];
    },
    doing: (i) =>
      (str(i, 'file')
        ? `reading ${str(i, 'file')} of the skill ${str(i, 'name') ?? ''}`
        : `loading the skill ${str(i, 'name') ?? ''}`
      ).trim(),
  },
  delegate_task: {
    done: (i) => [i.background === true ? `Started ${agents(i)} in the background` : `Delegated to ${agents(i)}`],
    doing: (i) => (i.background === true ? `starting ${agents(i)}` : `waiting for ${agents(i)}`),
  },
  background_runs: {
    done: (i) => [BACKGROUND_DONE[str(i, 'action') ?? ''] ?? 'Reached', ` ${count(list(i, 'runIds')?.length ?? 1, 'background subagent')}`],
    doing: (i) =>
      `${BACKGROUND_DOING[str(i, 'action') ?? ''] ?? 'reaching'} ${count(list(i, 'runIds')?.length ?? 1, 'background subagent')}`,
  },
  // The background tools before background_runs: old threads still show them.
  subagent_start: {
    done: (i) => [`Started ${agents(i)} in the background`],
    doing: (i) => `starting ${agents(i)}`,
  },
  subagent_status: {
    done: (_i, o) => [`Checked on ${str(o, 'agent') ?? 'a subagent'}`, ...(str(o, 'status') ? [` · ${str(o, 'status')}`] : [])],
    doing: () => 'checking on a subagent',
  },
  subagent_await: {
    done: (i) => [`Waited for ${count(list(i, 'runIds')?.length ?? 1, 'subagent')}`],
    doing: (i) => `waiting for ${count(list(i, 'runIds')?.length ?? 1, 'subagent')}`,
  },
  subagent_cancel: {
    done: (_i, o) => [`Stopped ${str(o, 'agent') ?? 'a subagent'}`],
    doing: () => 'stopping a subagent',
  },
};

const BACKGROUND_DONE: Readonly<Record<string, string>> = {
  status: 'Checked on',
  wait: 'Waited for',
  cancel: 'Stopped',
  message: 'Sent a message to',
};
const BACKGROUND_DOING: Readonly<Record<string, string>> = {
  status: 'checking on',
  wait: 'waiting for',
  cancel: 'stopping',
  message: 'sending a message to',
};

/** The fields that say what an unknown tool (an MCP server's) does, in order of preference. */
const TELLING_FIELDS = ['command', 'path', 'pattern', 'query', 'url', 'task', 'question', 'name', 'id'];

function tellingField(input: unknown): string {
  if (typeof input === 'string') return oneLine(input, 80);
  const f = fields(input);
  for (const key of TELLING_FIELDS) {
    const v = str(f, key);
    if (v) return oneLine(v, 80);
  }
  return '';
}

/** The failure as a short clause: a tool's `{ error }`, or its error text. */
function failure(call: ToolCallNode): string {
  const out = call.output;
  const text = typeof out === 'string' ? out : str(fields(out), 'error');
  return oneLine(text ?? 'failed', 80);
}

/**
 * An external agent's own tool call (`acp:<kind>`, src/core/run/external/acpUpdates.ts) says what
 * it does in its title ("Run git push --force"): that is its line, not "calling acp:execute".
 */
function acpTitle(call: ToolCallNode): string | undefined {
  if (!call.tool.startsWith('acp:')) return undefined;
  const title = str(fields(call.input), 'title');
  return title ? oneLine(title, 80) : undefined;
}

export function summarizeToolCall(call: ToolCallNode): SummaryPart[] {
  const words = WORDS[call.tool];
  const input = fields(call.input);
  const title = acpTitle(call);
  if (call.state === 'running') {
    const doing = words ? words.doing(input) : (title ?? `calling ${call.tool}`);
    const waiting = call.approval !== undefined && call.approval.decision === undefined;
    return [doing.charAt(0).toUpperCase() + doing.slice(1) + (waiting ? ' · waiting for your approval' : '…')];
  }
  const parts: SummaryPart[] = words
    ? words.done(input, fields(call.output), call)
    : title
      ? [title]
      : [call.tool, ...(tellingField(call.input) ? [' ', { code: tellingField(call.input) }] : [])];
  const notRun = approvalEnd(call);
  if (notRun) return [...parts, ` · ${notRun}`];
  if (call.state === 'error') return [...parts, ` · failed: ${failure(call)}`];
  return parts;
}

/** The live line's "what it is doing now", lower case: "reading src/invoice.ts". */
export function toolActivity(call: ToolCallNode): string {
  const words = WORDS[call.tool];
  const title = acpTitle(call);
  if (!words && title) return title;
  return words ? words.doing(fields(call.input)) : `calling ${call.tool}${tellingField(call.input) ? ` ${tellingField(call.input)}` : ''}`;
}

/** The summary as plain text (labels, tooltips, the clipboard); a file reads as its path, the line is where its link goes. */
export function summaryText(parts: readonly SummaryPart[]): string {
  return parts.map((p) => (typeof p === 'string' ? p : 'code' in p ? p.code : p.file.path)).join('');
}

/**
 * A tool call where it is printed rather than drawn (Show Run Tree, `subagents threads show`, the
 * Markdown export, the CLI's live lines): the summary, never the input as JSON, and "approved"
 * when the user was asked and said yes (a summary says only an approval not given).
 */
export function toolCallParts(call: ToolCallNode): SummaryPart[] {
  const parts = summarizeToolCall(call);
  return call.approval?.decision === 'approved' ? [...parts, ' · approved'] : parts;
}

/** toolCallParts as plain text: "Read src/x.ts lines 1–40", "Ran npm test · exit 1 · 2.3s · approved". */
export function toolCallText(call: ToolCallNode): string {
  return summaryText(toolCallParts(call));
}

/** Delegation tools: a call that started children is shown as those children's nodes (subagent_start: old threads). */
export const DELEGATION_TOOLS: ReadonlySet<string> = new Set(['delegate_task', 'subagent_start']);

/** Whether a call is waiting on children it did not start: background_runs' wait (subagent_await in old threads). */
export function waitsForChildren(call: Pick<ToolCallNode, 'tool' | 'input'>): boolean {
  return call.tool === 'subagent_await' || (call.tool === 'background_runs' && fields(call.input).action === 'wait');
}
