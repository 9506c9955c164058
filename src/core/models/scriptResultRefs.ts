import type { LanguageModelV4Prompt } from '@ai-sdk/provider';

/**
 * A value in a scripted tool call's input that stands for a field of an earlier tool result in
 * the conversation: `{ "$fromResult": { "tool": "delegate_task", "field": "0.runId" } }` is the
 * `runId` of the first run in the latest `delegate_task` result, as a model copies an id it was given. Replayed
 * sessions need it for values no script can know in advance (run ids, thread ids).
 */
export interface ResultRef {
  tool: string;
  /** A dotted path into the result (`runId`, `result.threadId`). */
  field: string;
  /** Which result of that tool, counted from the first in the conversation (0-based); default the latest. */
  index?: number;
}

const REF_KEY = '$fromResult';

function isRef(value: unknown): value is { [REF_KEY]: ResultRef } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  if (keys.length !== 1 || keys[0] !== REF_KEY) return false;
  const ref = (value as Record<string, unknown>)[REF_KEY] as Partial<ResultRef> | undefined;
  return typeof ref?.tool === 'string' && typeof ref.field === 'string' && (ref.index === undefined || typeof ref.index === 'number');
}

/** The JSON results of `tool` in the prompt, oldest first (a text result that is JSON counts). */
function resultsOf(prompt: LanguageModelV4Prompt, tool: string): unknown[] {
  const out: unknown[] = [];
  for (const message of prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-result' || part.toolName !== tool) continue;
      if (part.output.type === 'json') out.push(part.output.value);
      else if (part.output.type === 'text') out.push(parseOrText(part.output.value));
    }
  }
  return out;
}

function parseOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function pick(value: unknown, field: string): unknown {
  let at = value;
  for (const key of field.split('.')) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/** The input with every `$fromResult` replaced; a reference to nothing is an error that names it. */
export function resolveResultRefs(input: unknown, prompt: LanguageModelV4Prompt, agent: string, fail: (message: string) => never): unknown {
  if (isRef(input)) {
    const ref = input[REF_KEY];
    const results = resultsOf(prompt, ref.tool);
    const result = ref.index === undefined ? results.at(-1) : results[ref.index];
    const value = result === undefined ? undefined : pick(result, ref.field);
    if (value === undefined) {
      fail(
        `scripted model: agent "${agent}" refers to field "${ref.field}" of ${ref.index === undefined ? 'the latest' : `result ${ref.index} of the`} "${ref.tool}" result, ` +
          `but its conversation has ${results.length} such result${results.length === 1 ? '' : 's'}${result === undefined ? '' : ' and that one has no such field'}.`,
      );
    }
    return value;
  }
  if (Array.isArray(input)) return input.map((item) => resolveResultRefs(item, prompt, agent, fail));
  if (typeof input === 'object' && input !== null)
    return Object.fromEntries(Object.entries(input).map(([k, v]) => [k, resolveResultRefs(v, prompt, agent, fail)]));
  return input;
}
