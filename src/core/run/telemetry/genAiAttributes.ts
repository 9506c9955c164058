import { SpanStatusCode, type Attributes, type SpanStatus } from '@opentelemetry/api';
import type { RunEventOf } from '../../../shared/events';

// A run's span in the words of OpenTelemetry's GenAI semantic conventions (gen_ai.*), with what they
// have no word for under subagents.*. Content (the task, the output) only when it is to be recorded.

/** What a run's span starts with. */
export function startedAttributes(e: RunEventOf<'run.started'>, recordContent: boolean): Attributes {
  return {
    'gen_ai.operation.name': 'invoke_agent',
    'gen_ai.agent.name': e.agent,
    'gen_ai.conversation.id': e.threadId,
    'subagents.run.id': e.runId,
    'subagents.run.depth': e.depth,
    'subagents.agent.path': e.agentPath,
    'subagents.model': e.model,
    ...(recordContent ? { 'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: e.task }] }]) } : {}),
  };
}

/** What a run's span ends with: its own tokens (its subagents' are on their spans), its status, its output. */
export function finishedAttributes(e: RunEventOf<'run.finished'>, recordContent: boolean): Attributes {
  const { usage } = e;
  return {
    'gen_ai.usage.input_tokens': usage.inputTokens,
    'gen_ai.usage.output_tokens': usage.outputTokens,
    ...(usage.cacheReadTokens === undefined ? {} : { 'gen_ai.usage.cache_read.input_tokens': usage.cacheReadTokens }),
    ...(usage.cacheWriteTokens === undefined ? {} : { 'gen_ai.usage.cache_creation.input_tokens': usage.cacheWriteTokens }),
    ...(usage.costUsd === undefined ? {} : { 'subagents.usage.cost_usd': usage.costUsd }),
    ...(e.totalUsage
      ? {
          'subagents.usage.total.input_tokens': e.totalUsage.inputTokens,
          'subagents.usage.total.output_tokens': e.totalUsage.outputTokens,
        }
      : {}),
    'subagents.run.status': e.status,
    ...(e.status === 'ok' ? {} : { 'error.type': e.status }),
    ...(recordContent
      ? {
          'gen_ai.output.messages': JSON.stringify([
            { role: 'assistant', parts: [{ type: 'text', content: e.output }], finish_reason: e.status },
          ]),
        }
      : {}),
  };
}

/** OK for a run that finished its work; an error, saying why, for any other end (cancelled, timed out, out of steps…). */
export function runSpanStatus(e: RunEventOf<'run.finished'>): SpanStatus {
  return e.status === 'ok' ? { code: SpanStatusCode.OK } : { code: SpanStatusCode.ERROR, message: e.error ?? e.status };
}
