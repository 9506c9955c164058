import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { ModelMessage, TelemetryOptions, ToolCallRepairFunction, ToolSet } from 'ai';
import { errorText } from '../../../shared/errorText';
import type { Usage } from '../../../shared/events';
import { ZERO_USAGE, addUsage } from '../../../shared/usage';
import { withResilience } from '../../models/resilientModel';
import { usageOfCall, usageOfStep } from '../../models/usage/callUsage';
import type { RetryPolicy } from '../../models/retryPolicy';
import type { AnyToolSpec } from '../../tools/toolSpec';
import { hideTools } from './hideTools';
import { loadAiRuntime, type AiRuntime } from './loadAiRuntime';
import type { EmitRunEvent } from '../../runEvents';
import { toAiTools, type ToolRunIdentity } from './toAiTools';
import { FREE_SLOT, heldModel, type WorkSlot } from './workSlot';

export interface AgentRunInput {
  model: LanguageModelV4;
  /** The spec the model came from, named in error messages (default: the model id). */
  modelSpec?: string;
  instructions: string;
  /** The history, ending with the new user message. */
  messages: ModelMessage[];
  tools: readonly AnyToolSpec[];
  /** Tools the model is never shown; a forged call to one still reaches its (refusing) spec. */
  hiddenTools?: readonly string[];
  maxSteps: number;
  signal: AbortSignal;
  /** Held during each model call and each tool call that is not delegation (default: no limit). */
  slot?: WorkSlot;
  identity: ToolRunIdentity;
  emit: EmitRunEvent;
  /** Retries of transient provider errors (429, 5xx, lost connections); see retryPolicy.ts for the default. */
  retryPolicy?: RetryPolicy;
  /** Messages that arrived while the agent works (a background child's report): added before the next step. */
  takeArrivals?: () => ModelMessage[];
  /** Ends the loop after the current step, without another model call (a subagent's answer is final). */
  shouldStop?: () => boolean;
  /** True once the run's token budget is used up: no further model call, and unfinished work ends as `budget`. */
  outOfBudget?: () => boolean;
  /** The ai SDK's telemetry when the run is traced (src/core/run/telemetry/); none otherwise. */
  telemetry?: TelemetryOptions;
}

export interface AgentRunOutcome {
  /**
   * `aborted` when the signal fired (the caller knows whether that was a cancel or a timeout);
   * `max_steps` when the last allowed step still asked for tools, so the work is unfinished;
   * `budget` when the token budget ran out while the model still had work to do.
   */
  status: 'ok' | 'error' | 'aborted' | 'max_steps' | 'budget';
  /** Everything the agent wrote, steps separated by a blank line. */
  output: string;
  /** The text of its last step that wrote any: its final report, without the narration before it. */
  report: string;
  error?: string;
  usage: Usage;
  /** The conversation after this turn (input plus the model's and the tools' messages), to continue it. */
  messages: ModelMessage[];
}

/**
 * One agent working on one task: streams the model with its tools until it stops (or runs out of
 * steps) and turns the stream into RunEvents. Never throws: failures come back as the outcome.
 */
export async function runAgent(input: AgentRunInput): Promise<AgentRunOutcome> {
  const { emit } = input;
  const started = new Set<string>();
  let output = '';
  let stepHasText = false;
  let stepText = '';
  let report = '';
  let usage = ZERO_USAGE;
  let error: string | undefined;
  let aborted = false;
  let messages = input.messages;
  let sent = input.messages;
  let steps = 0;
  let lastFinish: string | undefined;
  let lastStepMessages: ModelMessage[] = [];
  const hidden = input.hiddenTools ?? [];
  const slot = input.slot ?? FREE_SLOT;
  // The slot is held inside the retries: a run waiting to retry gives its place to another.
  // A failed attempt's tokens are the run's too (the budget is charged below, where the stream is read).
  const model = resilient(input, heldModel(input.model, slot), (spent) => (usage = addUsage(usage, spent)));
  try {
    const ai = await loadAiRuntime();
    const { streamTextOnce, isStepCount } = ai;
    const hiding = hideTools(ai, model, hidden);
    // Without a model that can hide them, the stand-ins go: a forged call then fails as an unknown tool.
    const tools = hiding ? input.tools : input.tools.filter((t) => !hidden.includes(t.name));
    // The single-consumer stream: the loop reads fullStream once and nothing else of the result.
    // streamText would keep every part for replay and tee the whole stream even for this one
    // reader (about a tenth of a delegation's time at L = 0: 3 ms of 29 at 3 children, 8 of 67 at 8).
    const result = streamTextOnce({
      model: hiding ?? model,
      instructions: input.instructions,
      messages: input.messages,
      tools: toAiTools(tools, { run: input.identity, emit, started, slot }),
      stopWhen: [isStepCount(input.maxSteps), () => input.shouldStop?.() ?? false, () => input.outOfBudget?.() ?? false],
      prepareStep: ({ messages: current }) => {
        const arrivals = input.takeArrivals?.() ?? [];
        // What this step sends; with the step's own response messages it is the conversation so far.
        sent = arrivals.length ? [...current, ...arrivals] : current;
        return arrivals.length ? { messages: sent } : undefined;
      },
      abortSignal: input.signal,
      repairToolCall: unknownToolsNamedHonestly(
        ai,
        tools.filter((t) => !hidden.includes(t.name)).map((t) => t.name),
      ),
      // withResilience retries, so each retry is a RunEvent and its wait ends on cancel.
      maxRetries: 0,
      // With telemetry on, the SDK also publishes every call (prompt, tools, results) on the
      // process-wide diagnostics channel `ai:telemetry`, readable by every extension in the host: so
      // it is on only for a user who asked for traces. Off, it also skips redacting our tool list for
      // it on every call.
      telemetry: input.telemetry ?? { isEnabled: false },
      // Errors arrive as stream parts and end up in the outcome; the default handler would also log them.
      onError: () => {},
      // Kept as each step ends: awaiting result.steps afterwards would make the SDK tee the whole
      // stream again and run every part through it a second time (about a third of a delegation's CPU).
      onStepEnd: (step) => {
        lastStepMessages = step.response.messages;
      },
    });
    for await (const part of result.fullStream) {
      switch (part.type) {
        case 'start-step':
          stepHasText = false;
          stepText = '';
          break;
        case 'text-delta': {
          if (!part.text) break;
          // Steps are separate messages: keep a paragraph break between their texts.
          const text = !stepHasText && output ? `\n\n${part.text}` : part.text;
          stepHasText = true;
          stepText += part.text;
          output += text;
          emit({ kind: 'text.delta', text });
          break;
        }
        case 'tool-error':
          // A call that never ran (unknown tool, input that failed its schema) still shows in the tree.
          if (!started.has(part.toolCallId)) {
            started.add(part.toolCallId);
            emit({ kind: 'tool.started', toolCallId: part.toolCallId, tool: part.toolName, input: part.input });
            emit({ kind: 'tool.finished', toolCallId: part.toolCallId, tool: part.toolName, output: errorText(part.error), isError: true });
          }
          break;
        case 'finish-step':
          steps++;
          if (stepText.trim()) report = stepText;
          lastFinish = part.finishReason;
          usage = addUsage(usage, usageOfStep(part.usage));
          break;
        case 'error':
          error = errorText(part.error);
          break;
        case 'abort':
          aborted = true;
          break;
      }
    }
    if (!aborted && error === undefined) messages = [...sent, ...lastStepMessages];
  } catch (e) {
    if (input.signal.aborted) aborted = true;
    else error = errorText(e);
  }
  if (aborted || input.signal.aborted) return { status: 'aborted', output, report, usage, messages };
  if (error !== undefined) return { status: 'error', output, report, error, usage, messages };
  // The budget stopped the loop before the model could read its tools' results.
  if (lastFinish === 'tool-calls' && !input.shouldStop?.() && input.outOfBudget?.())
    return { status: 'budget', output, report, usage, messages };
  // The last allowed step asked for tools (whose results no model call will read): not finished.
  if (steps >= input.maxSteps && lastFinish === 'tool-calls' && !input.shouldStop?.())
    return { status: 'max_steps', output, report, usage, messages };
  return { status: 'ok', output, report, usage, messages };
}

/** The run's model, retrying what can be retried and reporting each retry and compaction as events. */
function resilient(input: AgentRunInput, model: LanguageModelV4, onFailedUsage: (usage: Usage) => void): LanguageModelV4 {
  return withResilience(model, {
    spec: input.modelSpec ?? input.model.modelId,
    ...(input.retryPolicy ? { policy: input.retryPolicy } : {}),
    onRetry: (notice) => input.emit({ kind: 'run.retrying', ...notice }),
    onFailedUsage: (u) => onFailedUsage(usageOfCall(u)),
    onCompact: ({ shortened, dropped }) =>
      input.emit({
        kind: 'warning',
        message:
          `The conversation was too long for the model: ${shortened} older tool output(s) were shortened` +
          `${dropped ? ` and ${dropped} earlier exchange(s) left out` : ''}, and the request was sent again.`,
      }),
  });
}

/**
 * The SDK answers a call to a tool that does not exist with "Available tools: …", listing every
 * tool it knows, the hidden stand-ins too (ask_user, the installs): a child would learn what it is
 * denied. This hook (the SDK's own repair step) words it with the run's visible tools only; the
 * call is not repaired, so it still fails as unknown.
 */
function unknownToolsNamedHonestly({ NoSuchToolError }: AiRuntime, visible: readonly string[]): ToolCallRepairFunction<ToolSet> {
  return async ({ toolCall, error }) => {
    if (NoSuchToolError.isInstance(error)) {
      error.message = `There is no tool "${toolCall.toolName}". The tools you have: ${visible.join(', ') || 'none'}.`;
    }
    return null;
  };
}
