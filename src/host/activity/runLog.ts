import type { Logger } from '../../core/ports';
import type { RunEvent } from '../../shared/events';
import { oneLine } from '../../shared/oneLine';
import { formatCost } from '../../shared/usage';

/**
 * The output channel's account of runs: each start, end (status, time, tokens) and cancel, at info
 * level, without the task's text (a prompt may carry pasted secrets or private code; its length is
 * enough to follow along); a one-line preview of the task only at debug level. Model specs are
 * logged without the user and password a base URL may carry.
 */
export function logRuns(onEvent: (listener: (event: RunEvent) => void) => () => void, logger: Logger): () => void {
  const agents = new Map<string, string>();
  return onEvent((event) => {
    if (event.kind === 'run.started') {
      agents.set(event.runId, event.agent);
      const where =
        event.depth === 0
          ? `in thread ${event.threadId}`
          : `at depth ${event.depth} in thread ${event.threadId} (for ${event.agentPath.slice(0, -1).join(' > ')})`;
      logger.info(
        `Run ${event.runId} started: ${event.agent} ${where}, model ${redactSpec(event.model)}, task of ${event.task.length} characters.`,
      );
      logger.debug(`Run ${event.runId} task: ${oneLine(event.task, 80)}`);
    } else if (event.kind === 'run.finished') {
      const agent = agents.get(event.runId) ?? 'run';
      agents.delete(event.runId);
      const usage = event.totalUsage ?? event.usage;
      const withSubagents = usage.totalTokens > event.usage.totalTokens ? ', with its subagents' : '';
      const cached = usage.cacheReadTokens ? `, ${usage.cacheReadTokens.toLocaleString('en-US')} cached` : '';
      const cost = formatCost(usage);
      const tokens = `${usage.totalTokens.toLocaleString('en-US')} tokens (${usage.inputTokens.toLocaleString('en-US')} in${cached} / ${usage.outputTokens.toLocaleString('en-US')} out${withSubagents})${cost ? `, ${cost}` : ''}`;
      const line = `Run ${event.runId} (${agent}) ${event.status === 'ok' ? 'finished' : `ended: ${event.status}`} in ${seconds(event.durationMs)}, ${tokens}.`;
      if (event.status === 'ok' || event.status === 'cancelled') logger.info(line);
      else logger.warn(`${line}${event.error ? ` ${oneLine(event.error, 300)}` : ''}`);
    }
  });
}

/** A model spec as the log shows it: `openai-compatible:http://user:secret@host/v1#m` loses `user:secret@`. */
export function redactSpec(spec: string): string {
  return spec.replace(/(\/\/)[^/@\s]*@/, '$1');
}

function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
