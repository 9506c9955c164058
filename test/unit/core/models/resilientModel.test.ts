import { createServer } from 'node:net';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { isStepCount, streamText, tool, type ModelMessage } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { withResilience, type RetryNotice } from '../../../../src/core/models/resilientModel';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../../../../src/core/models/retryPolicy';
import { startChatServer, textReply, toolCallReply, type ChatServer } from '../../fakes/openAiServer';

// The wrapper against a real HTTP server speaking the OpenAI streaming protocol, driven through
// streamText exactly as runAgent drives it (the SDK's own retries off).

// Waits are recorded, not slept: the tests say how long the wrapper asked to wait.
type Waits = number[];
const recordWaits = (waits: Waits) => async (ms: number) => void waits.push(ms);

let server: ChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function model(baseURL: string, notices: RetryNotice[], extra: { policy?: RetryPolicy; onCompact?: () => void; waits?: Waits } = {}) {
  const inner = createOpenAICompatible({ name: 'test', baseURL, includeUsage: true }).chatModel('m1');
  return withResilience(inner, {
    spec: `openai-compatible:${baseURL}#m1`,
    ...(extra.policy ? { policy: extra.policy } : {}),
    onRetry: (n) => notices.push(n),
    onCompact: extra.onCompact,
    random: () => 0.5,
    delay: recordWaits(extra.waits ?? []),
  });
}

/** Streams a prompt; returns the text, the error part (if any) and whether it was aborted. */
async function run(m: ReturnType<typeof model>, messages: ModelMessage[], signal?: AbortSignal) {
  const result = streamText({ model: m, messages, maxRetries: 0, abortSignal: signal, onError: () => {} });
  let text = '';
  let error: unknown;
  let aborted = false;
  try {
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') text += part.text;
      if (part.type === 'error') error = part.error;
      if (part.type === 'abort') aborted = true;
    }
  } catch (e) {
    // A stream that breaks mid-way surfaces as a throw, as runAgent's own catch expects.
    error = e;
  }
  return { text, error, aborted };
}

const ask = (text: string): ModelMessage[] => [{ role: 'user', content: text }];

describe('withResilience over a real OpenAI-compatible server', () => {
  it('waits as long as retry-after says after a 429, then streams the answer', async () => {
    server = await startChatServer([
      { status: 429, message: 'Rate limit reached', headers: { 'retry-after': '3' } },
      textReply(['Hello ', 'there']),
    ]);
    const notices: RetryNotice[] = [];
    const waits: Waits = [];
    const { text, error } = await run(model(server.baseURL, notices, { waits }), ask('hi'));
    expect(error).toBeUndefined();
    expect(text).toBe('Hello there');
    expect(notices).toEqual([{ attempt: 1, maxRetries: 4, delayMs: 3000, error: '429: Rate limit reached' }]);
    // The backoff alone would have waited one second: the server's three were honoured.
    expect(waits).toEqual([3000]);
    expect(server.requests).toHaveLength(2);
  });

  it('backs off 1 s, 2 s, 4 s, 8 s on 5xx and then gives up with a message', async () => {
    server = await startChatServer(Array.from({ length: 5 }, () => ({ status: 503, message: 'Service Unavailable' })));
    const notices: RetryNotice[] = [];
    const waits: Waits = [];
    const { error } = await run(model(server.baseURL, notices, { waits }), ask('hi'));
    expect(notices.map((n) => n.delayMs)).toEqual([1000, 2000, 4000, 8000]);
    expect(waits).toEqual([1000, 2000, 4000, 8000]);
    expect(server.requests).toHaveLength(5);
    expect((error as Error).message).toMatch(/still failed after 4 retries \(503: Service Unavailable\)/);
  });

  it('does not retry a 401 and says how to set the key', async () => {
    server = await startChatServer([{ status: 401, message: 'Invalid API key' }]);
    const notices: RetryNotice[] = [];
    const { error } = await run(model(server.baseURL, notices), ask('hi'));
    expect(notices).toEqual([]);
    expect(server.requests).toHaveLength(1);
    expect((error as Error).message).toMatch(
      /refused the API key \(401: Invalid API key\)\. Set the server's key with the "Subagents: Set API Key" command/,
    );
  });

  it('does not retry an unknown model (404) and names it', async () => {
    server = await startChatServer([{ status: 404, message: "model 'm1' not found, try pulling it first" }]);
    const { error } = await run(model(server.baseURL, []), ask('hi'));
    expect(server.requests).toHaveLength(1);
    expect((error as Error).message).toMatch(/The model "m1" was not found .*ollama pull m1/);
  });

  it('retries a refused connection', async () => {
    // A port that was free a moment ago: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const notices: RetryNotice[] = [];
    const { error } = await run(
      model(`http://127.0.0.1:${port}/v1`, notices, { policy: { ...DEFAULT_RETRY_POLICY, maxRetries: 2 } }),
      ask('hi'),
    );
    expect(notices).toHaveLength(2);
    expect(notices[0]!.error).toMatch(/Cannot connect to API|ECONNREFUSED/);
    expect((error as Error).message).toMatch(/still failed after 2 retries/);
  });

  it('retries a stream that breaks before its first part, never one that already spoke', async () => {
    server = await startChatServer([{ chunks: [], destroy: true }, textReply(['fine'])]);
    const notices: RetryNotice[] = [];
    expect((await run(model(server.baseURL, notices), ask('hi'))).text).toBe('fine');
    expect(notices).toHaveLength(1);

    await server.close();
    const half = textReply(['partial ', 'answer']) as { chunks: object[] };
    server = await startChatServer([{ chunks: half.chunks.slice(0, 1), destroy: true }, textReply(['never asked'])]);
    const later: RetryNotice[] = [];
    const { text, error } = await run(model(server.baseURL, later), ask('hi'));
    expect(text).toBe('partial ');
    expect(error).toBeDefined();
    expect(later).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('ends the wait at once when the run is cancelled', async () => {
    server = await startChatServer([{ status: 429, message: 'slow down', headers: { 'retry-after': '30' } }, textReply(['too late'])]);
    const controller = new AbortController();
    const notices: RetryNotice[] = [];
    const m = withResilience(createOpenAICompatible({ name: 'test', baseURL: server.baseURL }).chatModel('m1'), {
      spec: 'openai-compatible:test#m1',
      onRetry: (n) => notices.push(n),
      // A wait that only the signal can end: the run is cancelled while it waits.
      delay: (_ms, signal) =>
        new Promise<void>((_resolve, reject) => {
          signal?.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
          controller.abort(new Error('cancelled'));
        }),
    });
    const { text, aborted } = await run(m, ask('hi'), controller.signal);
    expect(notices[0]!.delayMs).toBe(30_000);
    expect(aborted).toBe(true);
    expect(text).toBe('');
    expect(server.requests).toHaveLength(1);
  });

  it('stops when the server asks for a wait longer than a minute', async () => {
    server = await startChatServer([{ status: 429, message: 'quota', headers: { 'retry-after': '3600' } }]);
    const notices: RetryNotice[] = [];
    const { error } = await run(model(server.baseURL, notices), ask('hi'));
    expect(notices).toEqual([]);
    expect((error as Error).message).toMatch(/asks to wait 3600 s before trying again/);
  });
});

describe('withResilience: a prompt that is too long', () => {
  const big = 'x'.repeat(5_000);
  /** A history with two large tool results, then the new question. */
  const history: ModelMessage[] = [
    { role: 'user', content: 'read both files' },
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 't1', toolName: 'read_file', input: { path: 'a' } }] },
    {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 't1', toolName: 'read_file', output: { type: 'text', value: `A:${big}` } }],
    },
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 't2', toolName: 'read_file', input: { path: 'b' } }] },
    {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 't2', toolName: 'read_file', output: { type: 'text', value: `B:${big}` } }],
    },
    { role: 'assistant', content: 'Read them.' },
    { role: 'user', content: 'now summarise' },
  ];
  const tooLong = {
    status: 400,
    message: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.",
  };

  it('shortens older tool outputs once, keeps every call with its result, and succeeds', async () => {
    server = await startChatServer([tooLong, textReply(['summary'])]);
    let compactions = 0;
    const { text, error } = await run(model(server.baseURL, [], { onCompact: () => compactions++ }), history);
    expect(error).toBeUndefined();
    expect(text).toBe('summary');
    expect(compactions).toBe(1);
    const [first, second] = server.requests;
    expect(second!.raw.length).toBeLessThan(first!.raw.length / 2);
    const messages = second!.body.messages as { role: string; tool_calls?: { id: string }[]; tool_call_id?: string; content: unknown }[];
    const calls = messages.flatMap((m) => m.tool_calls?.map((c) => c.id) ?? []);
    const results = messages.flatMap((m) => (m.role === 'tool' ? [m.tool_call_id] : []));
    expect(calls).toEqual(['t1', 't2']);
    expect(results).toEqual(['t1', 't2']);
    expect(String(messages.at(-1)!.content)).toBe('now summarise');
  });

  it('ends with a clear message when the compacted prompt is still too long', async () => {
    server = await startChatServer([tooLong, tooLong, textReply(['never'])]);
    const { error } = await run(model(server.baseURL, []), history);
    expect(server.requests).toHaveLength(2);
    expect((error as Error).message).toMatch(/too long for .* even after shortening older tool outputs .*Start a new thread/);
  });

  it('keeps later steps of the run compacted instead of overflowing again', async () => {
    const lookup = tool({ description: 'looks up', inputSchema: z.object({ q: z.string() }), execute: async () => 'ok' });
    server = await startChatServer([tooLong, toolCallReply('t3', 'lookup', ['{"q":', '"more"}']), textReply(['done'])]);
    const m = model(server.baseURL, []);
    const result = streamText({ model: m, messages: history, tools: { lookup }, stopWhen: isStepCount(3), maxRetries: 0 });
    expect(await result.text).toBe('done');
    expect(server.requests).toHaveLength(3);
    // The third request carries the new step's call and result, yet stays as small as the compacted one.
    expect(server.requests[2]!.raw.length).toBeLessThan(server.requests[0]!.raw.length / 2);
    expect(server.requests[2]!.raw).toContain('"tool_call_id":"t3"');
  });
});
