import { APICallError } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { classifyError, retryAfter } from '../../../../src/core/models/classifyError';

const target = { spec: 'openai:gpt-4o', modelId: 'gpt-4o' };
const apiError = (statusCode: number | undefined, message: string, extra: Partial<ConstructorParameters<typeof APICallError>[0]> = {}) =>
  new APICallError({ message, url: 'http://x', requestBodyValues: {}, statusCode, ...extra });

describe('classifyError', () => {
  it.each([408, 409, 425, 429, 500, 502, 503, 529])('retries status %i', (status) => {
    expect(classifyError(apiError(status, 'busy'), target).kind).toBe('transient');
  });

  it('reads retry-after from the error headers', () => {
    expect(classifyError(apiError(429, 'slow', { responseHeaders: { 'retry-after-ms': '250' } }), target)).toEqual({
      kind: 'transient',
      summary: '429: slow',
      retryAfterMs: 250,
    });
  });

  it.each([
    [401, /refused the API key .*"Subagents: Set API Key".*OPENAI_API_KEY/],
    [403, /refused access \(403: no\)\. Check that the key or account may use "gpt-4o"/],
    [404, /The model "gpt-4o" was not found .*"subagents\.model"/],
  ])('does not retry %i and says what to fix', (status, message) => {
    const c = classifyError(apiError(status, 'no'), target);
    expect(c.kind).toBe('permanent');
    expect(c.kind === 'permanent' && c.message).toMatch(message);
  });

  it.each([
    "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
    'prompt is too long: 210000 tokens > 200000 maximum',
    'Input is too long for requested model.',
    'The input exceeds the context window of this model',
    'Trying to keep the first 9000 tokens when context the overflows. However, the model is loaded with context length of 8192',
  ])('recognises a context overflow: %s', (message) => {
    expect(classifyError(apiError(400, message), target).kind).toBe('overflow');
  });

  it('leaves other 400s alone: not retried, the message shown as it is', () => {
    expect(classifyError(apiError(400, 'temperature must be <= 2'), target).kind).toBe('other');
    expect(classifyError(new Error('boom'), target).kind).toBe('other');
  });

  it('retries connection errors found on the cause chain, and timeouts', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    expect(classifyError(new TypeError('fetch failed', { cause: refused }), target)).toEqual({
      kind: 'transient',
      summary: 'connection failed (ECONNREFUSED)',
    });
    const timeout = new Error('The operation timed out');
    timeout.name = 'TimeoutError';
    expect(classifyError(timeout, target).kind).toBe('transient');
  });
});

describe('retryAfter', () => {
  it('prefers retry-after-ms, then retry-after in seconds or as a date, case-insensitively', () => {
    expect(retryAfter({ 'retry-after-ms': '1500', 'retry-after': '9' })).toBe(1500);
    expect(retryAfter({ 'Retry-After': '2' })).toBe(2000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfter({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }, now)).toBe(5000);
    expect(retryAfter({ 'retry-after': 'soon' })).toBeUndefined();
    expect(retryAfter(undefined)).toBeUndefined();
  });
});
