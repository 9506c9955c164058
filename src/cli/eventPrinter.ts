import type { RunEvent, RunEventOf } from '../shared/events';
import { retryText } from '../shared/retryText';
import { formatStats, formatUsage } from '../shared/usage';
import type { CliIo } from './cliIo';
import { oneLine } from '../shared/oneLine';
import { jsonForTerminal, terminalSafe } from './terminalText';
import { TODO_TOOL, todoItemsOf, todoLine } from '../shared/todoList';
import { EMPTY_TREE, reduceRunTree, type RunTree, type ToolCallNode } from '../shared/runTree';
import { approvalEnd } from '../shared/approvalEnd';
import { toolActivity, toolCallText } from '../shared/toolSummary';

export interface EventPrinter {
  print(event: RunEvent): void;
  /** The last top-level run of the thread to finish: its status decides the exit code. */
  lastTopFinish(threadId: string): RunEventOf<'run.finished'> | undefined;
  /** The closing line on stderr: status, stats, and how to continue. */
  summary(threadId: string, finished: RunEventOf<'run.finished'>): void;
}

/**
 * Prints a run as it happens. With --json, every event is one line of JSON on stdout and nothing
 * else goes there. Otherwise the top-level answer streams to stdout and the subagents' progress
 * (starts, tool calls, ends) goes to stderr, so `subagents run … > answer.md` keeps the answer clean.
 */
export function eventPrinter(io: CliIo, json: boolean): EventPrinter {
  const runs = new Map<string, { agent: string; depth: number; threadId: string; streamed: boolean }>();
  const lastTop = new Map<string, RunEventOf<'run.finished'>>();
  // The tool calls as the one reducer folds them, so a call prints as the panel and Show Run Tree
  // read it (shared/toolSummary.ts), never as its input's JSON. Only the events that shape a call
  // are folded: text deltas, by far the most, are not.
  let calls: RunTree = EMPTY_TREE;
  const call = (runId: string, toolCallId: string): ToolCallNode | undefined =>
    calls.runs[runId]?.toolCalls.find((c) => c.toolCallId === toolCallId);
  let atLineStart = true;
  // Model text and tool output reach the terminal without its control sequences (terminalText.ts).
  const out = (raw: string) => {
    const text = terminalSafe(raw);
    if (!text) return;
    io.stdout.write(text);
    atLineStart = text.endsWith('\n');
  };
  const progress = (depth: number, text: string) => io.stderr.write(`${'  '.repeat(Math.max(0, depth - 1))}${terminalSafe(text)}\n`);

  const human = (e: RunEvent) => {
    if (e.kind === 'run.started') {
      if (e.depth > 0) progress(e.depth, `[${e.agent}] started: ${oneLine(e.task, 100)}`);
      return;
    }
    const run = runs.get(e.runId);
    if (!run) return;
    switch (e.kind) {
      case 'text.delta':
        if (run.depth === 0) {
          out(e.text);
          run.streamed = true;
        }
        return;
      case 'tool.started': {
        // A plan is shown as the checklist it is; any other call as what it does: "Reading src/x.ts lines 1–40…".
        const plan = e.tool === TODO_TOOL ? todoItemsOf(e.input) : undefined;
        const started = call(e.runId, e.toolCallId);
        progress(run.depth + 1, `[${run.agent}] ${plan ? todoLine(plan) : started ? toolCallText(started) : e.tool}`);
        return;
      }
      case 'run.reasoning':
        progress(run.depth + 1, `[${run.agent}] thought: ${oneLine(e.text, 160)}`);
        return;
      case 'tool.finished': {
        // A failure in the summary's words ("Edited src/x.ts +1 −1 · failed: oldText was not found").
        // A call not run for want of approval was said when it was resolved (and its output is the
        // sentence meant for the model, not for the user).
        const finished = call(e.runId, e.toolCallId);
        if (e.isError && !(finished && approvalEnd(finished)))
          progress(run.depth + 1, `[${run.agent}] ${finished ? toolCallText(finished) : `${e.tool} failed: ${oneLine(e.output, 160)}`}`);
        return;
      }
      case 'approval.resolved': {
        const resolved = call(e.runId, e.toolCallId);
        const what = resolved ? toolActivity(resolved) : e.tool;
        // "denied", not approvalEnd's "denied by you": without a terminal the CLI denies for the user, who was not asked.
        const outcome = e.cancelled && resolved ? (approvalEnd(resolved) ?? e.decision) : e.decision;
        progress(run.depth + 1, `[${run.agent}] ${what}: ${outcome}`);
        return;
      }
      case 'warning':
        progress(run.depth + 1, `[${run.agent}] warning: ${e.message}`);
        return;
      case 'hook.ran': {
        const exit = e.exitCode === null ? 'killed' : `exit ${e.exitCode}`;
        const why = e.note ? `: ${oneLine(e.note, 160)}` : '';
        progress(
          run.depth + 1,
          `[${run.agent}] hook ${e.event} "${oneLine(e.command, 80)}" ${exit}, ${e.durationMs} ms, ${e.decision}${why}`,
        );
        return;
      }
      case 'run.retrying':
        progress(run.depth + 1, `[${run.agent}] ${oneLine(retryText(e), 200)}`);
        return;
      case 'run.finished':
        if (run.depth > 0) {
          const why = e.error ? `: ${oneLine(e.error, 160)}` : '';
          progress(run.depth, `[${run.agent}] ${e.status} (${formatStats(e.durationMs, e.usage)})${why}`);
          return;
        }
        // A bailed answer (or one the model did not stream) is printed whole.
        if (!run.streamed && e.output) out(e.output);
        if (!atLineStart) out('\n');
        return;
      default:
        return;
    }
  };

  return {
    print(event) {
      if (event.kind === 'run.started')
        runs.set(event.runId, { agent: event.agent, depth: event.depth, threadId: event.threadId, streamed: false });
      if (event.kind === 'run.finished' && runs.get(event.runId)?.depth === 0) lastTop.set(event.threadId, event);
      // --json is for programs: every event as it is, the input's JSON included.
      if (json) io.stdout.write(`${jsonForTerminal(event)}\n`);
      else {
        if (SHAPES_A_CALL.has(event.kind)) calls = reduceRunTree(calls, event);
        human(event);
      }
    },
    lastTopFinish: (threadId) => lastTop.get(threadId),
    summary(threadId, finished) {
      if (json) return;
      const why = finished.error ? `: ${terminalSafe(finished.error)}` : '';
      io.stderr.write(`\n${finished.status} (${summaryStats(finished)})${why}\n`);
      io.stderr.write(`thread ${threadId}: continue with: subagents run --thread ${threadId} "…"\n`);
    },
  };
}

/** The events that make or change a tool call node (run.started: the run it belongs to). */
const SHAPES_A_CALL: ReadonlySet<RunEvent['kind']> = new Set([
  'run.started',
  'tool.started',
  'tool.finished',
  'approval.requested',
  'approval.resolved',
]);

/** The top run's time, tokens and cost, then those of the whole request when subagents added to them. */
function summaryStats(finished: RunEventOf<'run.finished'>): string {
  const own = formatStats(finished.durationMs, finished.usage);
  const total = finished.totalUsage;
  if (!total || total.totalTokens === finished.usage.totalTokens) return own;
  return `${own}; with its subagents: ${formatUsage(total)}`;
}
