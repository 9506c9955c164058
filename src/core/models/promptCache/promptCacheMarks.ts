import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4Message, SharedV4ProviderOptions } from '@ai-sdk/provider';
import { wrapModel } from '../wrapModel';

/** Anthropic's limit of `cache_control` breakpoints in one request. */
export const MAX_CACHE_MARKS = 4;

const EPHEMERAL = { anthropic: { cacheControl: { type: 'ephemeral' } } } as const;

/**
 * A model whose calls mark their prefix for the provider's prompt cache, when the provider needs
 * marks: Anthropic caches only up to a `cache_control` breakpoint (the SDK's Anthropic client turns
 * `providerOptions.anthropic.cacheControl` into one). Other models are returned as they are:
 * OpenAI and DeepSeek cache a repeated prefix by themselves, and the editor's models take no marks.
 */
export function withPromptCacheMarks(model: LanguageModelV4): LanguageModelV4 {
  if (!model.provider.startsWith('anthropic')) return model;
  return wrapModel(model, {
    doStream: (call) => model.doStream(markPromptCache(call)),
    doGenerate: (call) => model.doGenerate(markPromptCache(call)),
  });
}

/**
 * The call with at most four marks, each where the next call's prefix ends up the same bytes:
 * 1. the last tool (the tools come first in Anthropic's prefix, the same on every call of a run);
 * 2. the system prompt (tools and instructions: the same for every run of one agent and task);
 * 3. the last message (the conversation so far: the next call starts with it);
 * 4. the end of the previous call's messages (the message before the last answer), so a step that
 *    adds many blocks still finds what the last call wrote: Anthropic looks back only 20 blocks.
 * The messages given are not changed: what the SDK keeps for the next step stays unmarked.
 */
export function markPromptCache(call: LanguageModelV4CallOptions): LanguageModelV4CallOptions {
  const tools = call.tools?.slice();
  const lastTool = tools ? findLastIndex(tools, (t) => t.type === 'function') : -1;
  if (tools && lastTool >= 0) {
    const tool = tools[lastTool]!;
    if (tool.type === 'function') tools[lastTool] = { ...tool, providerOptions: marked(tool.providerOptions) };
  }
  const prompt = call.prompt.slice();
  const firstTurn = prompt.findIndex((m) => m.role !== 'system');
  const marks = new Set<number>();
  // The system prompt: the last of the messages before the conversation.
  const systemEnd = firstTurn < 0 ? prompt.length - 1 : firstTurn - 1;
  if (systemEnd >= 0 && prompt[systemEnd]!.role === 'system') marks.add(systemEnd);
  if (firstTurn >= 0) {
    const last = prompt.length - 1;
    if (hasContent(prompt[last]!)) marks.add(last);
    const answer = findLastIndex(prompt, (m, i) => i < last && m.role === 'assistant');
    if (answer - 1 >= firstTurn && hasContent(prompt[answer - 1]!)) marks.add(answer - 1);
  }
  for (const i of marks) prompt[i] = { ...prompt[i]!, providerOptions: marked(prompt[i]!.providerOptions) };
  return { ...call, prompt, ...(tools ? { tools } : {}) };
}

/** A message with nothing in it gives the mark no block to sit on. */
function hasContent(message: LanguageModelV4Message): boolean {
  return typeof message.content === 'string' ? message.content.length > 0 : message.content.length > 0;
}

function marked(options: SharedV4ProviderOptions | undefined): SharedV4ProviderOptions {
  return { ...options, anthropic: { ...options?.anthropic, ...EPHEMERAL.anthropic } };
}

function findLastIndex<T>(items: readonly T[], test: (item: T, index: number) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i]!, i)) return i;
  return -1;
}
