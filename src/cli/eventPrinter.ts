import type { RunEvent, RunEventOf } from '../shared/events';
import { retryText } from '../shared/retryText';
import { formatStats, formatUsage } from '../shared/usage';
import type { CliIo } from './cliIo';
import { oneLine } from '../shared/oneLine';
import { jsonForTerminal, terminalSafe } from './terminalText';
import { TODO_TOOL, todoItemsOf, todoLine } from '../shared/todoList';

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
        // A plan is shown as the checklist it is.
        const plan = e.tool === TODO_TOOL ? todoItemsOf(e.input) : undefined;
        progress(run.depth + 1, `[${run.agent}] ${plan ? todoLine(plan) : `${e.tool} ${oneLine(e.input, 100)}`}`);
        return;
      }
      case 'run.reasoning':
        progress(run.depth + 1, `[${run.agent}] thought: ${oneLine(e.text, 160)}`);
        return;
      case 'tool.finished':
        if (e.isError) progress(run.depth + 1, `[${run.agent}] ${e.tool} failed: ${oneLine(e.output, 160)}`);
        return;
      case 'approval.resolved':
        progress(run.depth + 1, `[${run.agent}] ${e.tool} ${e.decision}`);
        return;
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
      if (json) io.stdout.write(`${jsonForTerminal(event)}\n`);
      else human(event);
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

/** The top run's time, tokens and cost, then those of the whole request when subagents added to them. */
function summaryStats(finished: RunEventOf<'run.finished'>): string {
  const own = formatStats(finished.durationMs, finished.usage);
  const total = finished.totalUsage;
  if (!total || total.totalTokens === finished.usage.totalTokens) return own;
  return `${own}; with its subagents: ${formatUsage(total)}`;
}
