import type { LanguageModelV4Usage } from '@ai-sdk/provider';
import type { LanguageModelUsage } from 'ai';
import type { Usage } from '../../../shared/events';

/**
 * One model call's tokens as a run keeps them, from what the provider reported: every input token
 * (the SDK's total includes the cached ones), of which how many the provider's prompt cache served
 * (OpenAI's `cached_tokens`, Anthropic's `cache_read_input_tokens`) or took in (Anthropic's
 * `cache_creation_input_tokens`), and the output. Both shapes the SDK reports usage in come here,
 * so the budget's meter and the run's own count agree.
 */
export function usageOfCall(u: LanguageModelV4Usage): Usage {
  return usage(u.inputTokens.total, u.outputTokens.total, u.inputTokens.cacheRead, u.inputTokens.cacheWrite, u.raw);
}

/** The same from the SDK's per-step usage (a `finish-step` part). */
export function usageOfStep(u: LanguageModelUsage): Usage {
  return usage(u.inputTokens, u.outputTokens, u.inputTokenDetails.cacheReadTokens, u.inputTokenDetails.cacheWriteTokens, u.raw);
}

function usage(input: unknown, output: unknown, cacheRead: unknown, cacheWrite: unknown, raw: unknown): Usage {
  const inputTokens = count(input);
  const outputTokens = count(output);
  const read = Math.min(count(cacheRead) || deepSeekCacheHits(raw), inputTokens);
  const write = Math.min(count(cacheWrite), inputTokens - read);
  return {
    inputTokens,
    outputTokens,
    totalTokens: inputTokens + outputTokens,
    ...(read ? { cacheReadTokens: read } : {}),
    ...(write ? { cacheWriteTokens: write } : {}),
  };
}

/**
 * DeepSeek (an OpenAI-compatible server) reports its cache hits as `prompt_cache_hit_tokens`,
 * which the SDK's OpenAI-compatible client does not read; it passes the raw usage on.
 */
function deepSeekCacheHits(raw: unknown): number {
  return typeof raw === 'object' && raw !== null && 'prompt_cache_hit_tokens' in raw ? count(raw.prompt_cache_hit_tokens) : 0;
}

/**
 * A provider's number as a token count: anything not a finite positive number is none, and no call
 * counts more than a billion (a server that reports 1e300 would make sums no thread can hold).
 */
const count = (n: unknown): number => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? Math.min(Math.floor(n), MAX_CALL_TOKENS) : 0);

const MAX_CALL_TOKENS = 1_000_000_000;
