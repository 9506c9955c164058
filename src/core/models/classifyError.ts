import { APICallError } from '@ai-sdk/provider';

/**
 * What a failed model call means for the caller: wait and try again, shrink the prompt and try
 * again, or stop and tell the user what to fix. Anything we cannot place is `other`: not retried,
 * its own message shown as it is.
 */
export type ErrorClass =
  | { kind: 'transient'; summary: string; retryAfterMs?: number }
  | { kind: 'overflow'; summary: string }
  | { kind: 'permanent'; message: string }
  | { kind: 'other' };

/** Who was called, for messages that say what to fix. */
export interface CallTarget {
  /** The spec as the user wrote it, e.g. `openai:gpt-4o`. */
  spec: string;
  /** The model id the provider was asked for. */
  modelId: string;
}

// Providers word it differently: OpenAI and vLLM "maximum context length", Anthropic "prompt is too
// long", others "context window", "too many tokens", "exceeds the token limit".
const OVERFLOW =
  /context[ _-]?(length|window)|maximum context|prompt is too long|too many (input )?tokens|exceeds? (the )?(max(imum)? )?(token|context)|token limit|input is too long|context_length_exceeded/i;

/** Status codes worth another try: timeouts, conflicts, rate limits and server trouble. */
const TRANSIENT_STATUS = new Set([408, 409, 425, 429]);

/** Node and undici codes of connections that failed or timed out. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
]);

const KEY_HINTS: Record<string, string> = {
  openai: 'Set a valid key with the "Subagents: Set API Key" command (the CLI reads OPENAI_API_KEY).',
  anthropic: 'Set a valid key with the "Subagents: Set API Key" command (the CLI reads ANTHROPIC_API_KEY).',
  'openai-compatible':
    'Set the server\'s key with the "Subagents: Set API Key" command, provider "OpenAI-compatible server" (the CLI reads SUBAGENTS_API_KEY).',
};

export function classifyError(error: unknown, target: CallTarget): ErrorClass {
  if (APICallError.isInstance(error)) return classifyApiError(error, target);
  const code = networkCode(error);
  if (code) return { kind: 'transient', summary: `connection failed (${code})` };
  if (error instanceof Error && error.name === 'TimeoutError') return { kind: 'transient', summary: 'the request timed out' };
  return { kind: 'other' };
}

function classifyApiError(error: APICallError, target: CallTarget): ErrorClass {
  const status = error.statusCode;
  const said = serverMessage(error);
  const text = `${error.message} ${error.responseBody ?? ''}`;
  if ((status === undefined || status === 400 || status === 413 || status === 422) && OVERFLOW.test(text)) {
    return { kind: 'overflow', summary: said };
  }
  if (status !== undefined && status >= 300 && status < 400) {
    const location = Object.entries(error.responseHeaders ?? {}).find(([k]) => k.toLowerCase() === 'location')?.[1];
    return {
      kind: 'permanent',
      message:
        `The model server for "${target.spec}" answered with a redirect (${status}${location ? ` to ${location.slice(0, 200)}` : ''}). ` +
        'Redirects are not followed, so the request and its key go nowhere else: put the address the server names in the model spec.',
    };
  }
  if (status === 401) {
    return {
      kind: 'permanent',
      message: `The model "${target.spec}" refused the API key (401: ${said}). ${KEY_HINTS[keyProvider(target.spec)] ?? ''}`.trim(),
    };
  }
  if (status === 403) {
    return {
      kind: 'permanent',
      message: `The model "${target.spec}" refused access (403: ${said}). Check that the key or account may use "${target.modelId}", or choose another model in "subagents.model".`,
    };
  }
  if (status === 404) {
    return {
      kind: 'permanent',
      message:
        `The model "${target.modelId}" was not found (404: ${said}). Check the model name in "subagents.model" (or the profile's "model")` +
        (keyProvider(target.spec) === 'openai-compatible' ? `; for Ollama, pull it first ("ollama pull ${target.modelId}").` : '.'),
    };
  }
  if (status !== undefined && (TRANSIENT_STATUS.has(status) || status >= 500)) {
    const retryAfterMs = retryAfter(error.responseHeaders);
    return { kind: 'transient', summary: `${status}: ${said}`, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
  }
  // A connection that broke, even after a 200 (the body never finished), or one that never opened.
  const code = networkCode(error);
  if (code) return { kind: 'transient', summary: `connection failed (${code})` };
  if (status === undefined && error.isRetryable) return { kind: 'transient', summary: said };
  return { kind: 'other' };
}

/** The provider's own words, short: the message without the SDK's framing. */
function serverMessage(error: APICallError): string {
  const message = error.message.trim() || 'no message';
  return message.length > 300 ? `${message.slice(0, 299)}…` : message;
}

function keyProvider(spec: string): string {
  return spec.slice(0, Math.max(0, spec.indexOf(':'))).trim();
}

/** The first network error code on the cause chain, if any. */
function networkCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const code = 'code' in current ? current.code : undefined;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return code;
    current = 'cause' in current ? current.cause : undefined;
  }
  return undefined;
}

/**
 * How long the server asked us to wait: `retry-after-ms` (OpenAI), else `retry-after` in seconds
 * or as an HTTP date. Undefined when absent or unreadable.
 */
export function retryAfter(headers: Record<string, string> | undefined, now: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const lower = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const ms = Number.parseFloat(lower.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = lower.get('retry-after')?.trim();
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
