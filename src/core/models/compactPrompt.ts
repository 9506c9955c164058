import type { LanguageModelV4Message, LanguageModelV4Prompt, LanguageModelV4ToolResultOutput } from '@ai-sdk/provider';
import { toolOutputText } from './toolOutputText';

/**
 * Shrinks a prompt the provider found too long, cheapest loss first:
 * 1. tool outputs, oldest first, become a short stub with their first characters (the call and its
 *    result both stay, so no provider sees a result without its call or a call without a result);
 * 2. if that is not enough, whole earlier exchanges (a user message and every assistant and tool
 *    message up to the next user message) go, oldest first.
 * System messages, the last user message and the texts the agent wrote since are never touched.
 * Sizes are counted in characters of JSON: the provider's tokenizer is not ours to call.
 */

export interface CompactionResult {
  prompt: LanguageModelV4Prompt;
  /** Tool outputs replaced by a stub. */
  shortened: number;
  /** Earlier exchanges dropped whole. */
  dropped: number;
  before: number;
  after: number;
}

export interface CompactionOptions {
  /** Aim for this fraction of the original size (default a half). */
  targetRatio?: number;
  /** How much of a shortened output is kept as a preview. */
  previewChars?: number;
}

export function compactPrompt(prompt: LanguageModelV4Prompt, options: CompactionOptions = {}): CompactionResult {
  const previewChars = options.previewChars ?? 200;
  const messages = prompt.map(copyMessage);
  const before = sizeOf(messages);
  const target = before * (options.targetRatio ?? 0.5);
  let size = before;
  let shortened = 0;

  for (const message of messages) {
    if (size <= target) break;
    if (message.role !== 'tool' && message.role !== 'assistant') continue;
    for (const part of message.content) {
      if (size <= target) break;
      if (part.type !== 'tool-result') continue;
      const text = toolOutputText(part.output);
      if (text.length <= previewChars + 100) continue; // a stub would save next to nothing
      const stub: LanguageModelV4ToolResultOutput = {
        type: 'text',
        value: `[Output shortened to fit the model's context window; it began: ${text.slice(0, previewChars)}…]`,
      };
      size += JSON.stringify(stub).length - JSON.stringify(part.output).length;
      part.output = stub;
      shortened++;
    }
  }

  let dropped = 0;
  let kept = messages;
  const lastUser = messages.findLastIndex((m) => m.role === 'user');
  const firstUser = messages.findIndex((m) => m.role === 'user');
  if (size > target && firstUser >= 0 && firstUser < lastUser) {
    // Exchanges start at each user message before the last one.
    const starts = messages.flatMap((m, i) => (m.role === 'user' && i < lastUser ? [i] : []));
    let cut = firstUser;
    for (let k = 0; k < starts.length && size > target; k++) {
      const end = starts[k + 1] ?? lastUser;
      size -= sizeOf(messages.slice(starts[k], end));
      cut = end;
      dropped++;
    }
    kept = [...messages.slice(0, firstUser).filter((m) => m.role === 'system'), ...messages.slice(cut)];
  }
  return { prompt: kept, shortened, dropped, before, after: sizeOf(kept) };
}

/** Copies what compaction may change (messages, their content arrays, tool-result parts). */
function copyMessage(message: LanguageModelV4Message): LanguageModelV4Message {
  switch (message.role) {
    case 'system':
      return { ...message };
    case 'user':
      return { ...message, content: [...message.content] };
    case 'assistant':
      return { ...message, content: message.content.map((p) => (p.type === 'tool-result' ? { ...p } : p)) };
    case 'tool':
      return { ...message, content: message.content.map((p) => (p.type === 'tool-result' ? { ...p } : p)) };
  }
}

function sizeOf(messages: readonly LanguageModelV4Message[]): number {
  let total = 0;
  for (const m of messages) total += JSON.stringify(m).length;
  return total;
}
