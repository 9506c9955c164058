import type { ModelMessage } from 'ai';
import type { RunEvent, RunEventOf } from '../../../shared/events';
import { RENAMED_TOOLS } from '../../config/agentFiles/renamedTools';
import { steerForModel } from '../steering/steerRun';
import type { LoadedThread, ThreadStore } from '../../storage/threads/threadStore';
import { announcementText } from './modelResult';
import type { RunResult } from './runResult';

/**
 * The tools whose calls and results stay in a continued conversation: what was delegated, and what
 * came back. The old names (renamedTools.ts) too: a thread of an earlier version keeps its history.
 */
const DELEGATION_TOOLS: ReadonlySet<string> = new Set(['delegate_task', 'background_runs', ...Object.keys(RENAMED_TOOLS)]);

/**
 * The conversation of a thread as model messages, for the next turn (also after a reload): each
 * run's task (and any message it was sent while it worked) as the user's turn, its delegation calls with their results, the report of every
 * background child it started that it did not see (a child that was cut off is reported as such,
 * with its partial output), and its final output as the assistant's answer. Other tool traffic
 * is left out: the outputs carry what was learned, and a continued thread stays small.
 *
 * `events` are the thread's family (its own and its child threads' events), so the results of
 * background children can be found.
 */
export function conversationHistory(threadId: string, events: readonly RunEvent[]): ModelMessage[] {
  const ends = new Map<string, RunEventOf<'run.finished'>>();
  const starts = new Map<string, RunEventOf<'run.started'>>();
  for (const e of events) {
    if (e.kind === 'run.finished') ends.set(e.runId, e);
    else if (e.kind === 'run.started') starts.set(e.runId, e);
  }
  const messages: ModelMessage[] = [];
  for (const start of starts.values()) {
    if (start.threadId !== threadId) continue;
    const end = ends.get(start.runId);
    if (!end) continue;
    // Messages it was sent while it worked (steers) belong to the user's side of that turn.
    const steers = events.flatMap((e) => (e.kind === 'run.message' && e.runId === start.runId ? [steerForModel(e.from, e.text)] : []));
    messages.push({ role: 'user', content: [start.task, ...steers].join('\n\n') });
    const answer = end.output.trim() || (end.error ? `(The run ended with an error: ${end.error})` : '(No answer.)');
    const calls = delegationCalls(start.runId, events);
    const reports = unseenReports(calls, starts, ends);
    // As text, not as tool-call parts: some providers refuse tool parts in a request whose tools differ.
    const summary = calls.length > 0 ? `${DELEGATED}\n${calls.map(callLine).join('\n')}` : '';
    if (reports.length === 0) {
      messages.push({ role: 'assistant', content: summary ? `${summary}\n\n${answer}` : answer });
    } else {
      messages.push({ role: 'assistant', content: summary });
      for (const report of reports) messages.push({ role: 'user', content: report });
      messages.push({ role: 'assistant', content: answer });
    }
  }
  return messages;
}

interface DelegationCall {
  started: RunEventOf<'tool.started'>;
  finished: RunEventOf<'tool.finished'> | undefined;
}

function delegationCalls(runId: string, events: readonly RunEvent[]): DelegationCall[] {
  const calls = new Map<string, DelegationCall>();
  for (const e of events) {
    if (e.runId !== runId) continue;
    if (e.kind === 'tool.started' && DELEGATION_TOOLS.has(e.tool)) calls.set(e.toolCallId, { started: e, finished: undefined });
    else if (e.kind === 'tool.finished') {
      const call = calls.get(e.toolCallId);
      if (call) call.finished = e;
    }
  }
  return [...calls.values()];
}

const DELEGATED = '[What I delegated in this turn, and what came back]';

/** One delegation call and its result as the model saw them. */
function callLine({ started, finished }: DelegationCall): string {
  const result =
    finished === undefined
      ? 'no result was recorded'
      : typeof finished.output === 'string'
        ? finished.output
        : JSON.stringify(finished.output);
  return `- ${started.tool} ${JSON.stringify(started.input)} -> ${finished?.isError ? 'error: ' : ''}${result}`;
}

/**
 * Reports of the background children these calls started whose result the calls never returned
 * (it was announced, or the child was cut off by a crash or a reload): said again, as announced.
 */
function unseenReports(
  calls: readonly DelegationCall[],
  starts: ReadonlyMap<string, RunEventOf<'run.started'>>,
  ends: ReadonlyMap<string, RunEventOf<'run.finished'>>,
): string[] {
  const seen = new Set<string>();
  const started: string[] = [];
  for (const { finished } of calls) {
    for (const r of resultsIn(finished?.output)) {
      // Only a background start (delegate_task's background, or subagent_start before it) answers "started".
      if (r.status === 'started') started.push(r.runId);
      else if (r.status !== 'running' && r.status !== 'started' && r.status !== 'existing' && r.status !== 'busy') seen.add(r.runId);
    }
  }
  const reports: string[] = [];
  for (const runId of started) {
    const end = ends.get(runId);
    const start = starts.get(runId);
    if (seen.has(runId) || !end || !start) continue;
    reports.push(announcementText(resultOf(start, end)));
  }
  return reports;
}

/** The `{runId, status}` entries of a delegation tool's output (one object, or an array of them). */
function resultsIn(output: unknown): { runId: string; status: string }[] {
  const list = Array.isArray(output) ? output : [output];
  return list.flatMap((r) =>
    typeof r === 'object' &&
    r !== null &&
    typeof (r as { runId?: unknown }).runId === 'string' &&
    typeof (r as { status?: unknown }).status === 'string'
      ? [r as { runId: string; status: string }]
      : [],
  );
}

function resultOf(start: RunEventOf<'run.started'>, end: RunEventOf<'run.finished'>): RunResult {
  return {
    agent: start.agent,
    runId: end.runId,
    threadId: end.threadId,
    status: end.status,
    output: end.output,
    ...(end.error === undefined ? {} : { error: end.error }),
    usage: end.usage,
    durationMs: end.durationMs,
  };
}

/** The history of a thread just opened: its family is read only when it has earlier turns. */
export async function loadConversationHistory(store: ThreadStore, threadId: string, opened: LoadedThread): Promise<ModelMessage[]> {
  if (opened.events.length === 0) return [];
  const family = await store.getFamily(threadId);
  return conversationHistory(threadId, family?.events ?? opened.events);
}
