import { tool } from '@ai-sdk/provider-utils';
import type { ToolSet } from 'ai';
import type { AnyToolSpec, ToolCallContext } from '../../tools/toolSpec';
import { toolJsonSchema } from '../../tools/toolSchema';
import { errorText } from '../../../shared/errorText';
import type { EmitRunEvent } from '../../runEvents';
import type { WorkSlot } from './workSlot';

export interface ToolRunIdentity {
  runId: string;
  threadId: string;
}

export interface ToolRunContext {
  run: ToolRunIdentity;
  emit: EmitRunEvent;
  /** Ids of the calls that emitted tool.started, so a failed call is not announced twice. */
  started: Set<string>;
  /** Held while a tool works; delegation tools hold none (they wait for other runs' work). */
  slot: WorkSlot;
}

/**
 * Adapts engine tools for one model call. Each execution emits `tool.started` before it runs and
 * `tool.finished` after, from inside the call, so a tool's own events (a child run starting) are
 * always ordered after its start in the thread.
 */
export function toAiTools(specs: readonly AnyToolSpec[], { run, emit, started, slot }: ToolRunContext): ToolSet {
  const tools: ToolSet = {};
  for (const spec of specs) {
    tools[spec.name] = tool<unknown, unknown, Record<string, never>>({
      description: spec.description,
      inputSchema: toolJsonSchema(spec.inputSchema),
      execute: async (input: unknown, options) => {
        const toolCallId = options.toolCallId;
        started.add(toolCallId);
        emit({ kind: 'tool.started', toolCallId, tool: spec.name, input });
        const signal = options.abortSignal ?? new AbortController().signal;
        const context: ToolCallContext = { ...run, toolCallId, signal };
        const delegates = spec.capabilities.includes('delegate');
        let release: (() => void) | undefined;
        try {
          if (!delegates) release = await slot.hold(signal);
          const output = await spec.execute(input, context);
          emit({ kind: 'tool.finished', toolCallId, tool: spec.name, output, isError: isErrorResult(output) });
          return output;
        } catch (error) {
          emit({ kind: 'tool.finished', toolCallId, tool: spec.name, output: errorText(error), isError: true });
          throw error;
        } finally {
          release?.();
        }
      },
    });
  }
  return tools;
}

/** Tools return `{ error: "..." }` for failures the model should see and act on. */
function isErrorResult(output: unknown): boolean {
  return typeof output === 'object' && output !== null && 'error' in output && typeof output.error === 'string';
}
