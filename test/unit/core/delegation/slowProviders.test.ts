import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { APICallError, type LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunResult } from '../../../../src/core/run/delegation/runResult';
import { createModelResolver } from '../../../../src/core/models/createModelResolver';
import { enclosedText } from '../../../../src/core/access/untrusted/untrustedText';
import type { RunEventOf } from '../../../../src/shared/events';
import { textReply } from '../../fakes/openAiServer';
import { agent, makeEngine } from '../engineHarness';
import { programmedModel } from '../programmedModel';

// Slow and local models (issue 39, item 9), through the real engine: a real node:http server for
// what happens on the wire, a model stub for what a provider's stream says after a failure.

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** An OpenAI-compatible server that answers each chat call with "Hello there", its headers only after `delayMs`. */
async function slowHeadersServer(delayMs: number): Promise<{ baseURL: string; requests: () => number }> {
  const reply = textReply(['Hello ', 'there']);
  let requests = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests++;
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        if ('chunks' in reply) for (const chunk of reply.chunks) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
        res.end('data: [DONE]\n\n');
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests: () => requests };
}

// Node's global fetch keeps its undici dispatcher here; a test may put one with lower timeouts in its place.
const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');
type Dispatcher = { constructor: new (options: { headersTimeout: number; bodyTimeout: number }) => unknown };

/** Runs `body` with Node's fetch giving up on headers or a silent body after `ms` (its default is 300 s). */
async function withUndiciTimeout<T>(ms: number, body: () => Promise<T>): Promise<T> {
  const slots = globalThis as unknown as Record<symbol, Dispatcher | undefined>;
  // The global dispatcher is made on the first fetch.
  await fetch('http://127.0.0.1:1/').catch(() => undefined);
  const original = slots[GLOBAL_DISPATCHER];
  if (!original) throw new Error("Node's global fetch dispatcher was not found; this Node is not the one the test was written for.");
  slots[GLOBAL_DISPATCHER] = new original.constructor({ headersTimeout: ms, bodyTimeout: ms }) as Dispatcher;
  try {
    return await body();
  } finally {
    slots[GLOBAL_DISPATCHER] = original;
  }
}

describe('a model slow to send its first byte', () => {
  it("is waited for as long as subagents.modelIdleTimeoutMs allows, whatever Node's fetch timeouts are", async () => {
    const server = await slowHeadersServer(2000);
    await withUndiciTimeout(100, async () => {
      // The lowered timeout is in force for Node's fetch: it gives up on these headers.
      const plain = await fetch(`${server.baseURL}/chat/completions`, { method: 'POST', body: '{}' }).then(
        () => 'answered',
        (error: Error & { cause?: { code?: string } }) => error.cause?.code,
      );
      expect(plain).toBe('UND_ERR_HEADERS_TIMEOUT');

      const spec = `openai-compatible:${server.baseURL}#m1`;
      const h = makeEngine(
        { agents: {} },
        {
          settings: { model: spec, modelIdleTimeoutMs: 20_000 },
          createModelResolver: () => createModelResolver({ workspaceRoot: '/', apiKey: () => undefined }),
        },
      );
      const finished = await (await h.engine.send({ prompt: 'hi' })).done;
      expect(finished.error).toBeUndefined();
      expect(finished.status).toBe('ok');
      expect(finished.output).toBe('Hello there');
      // One request, answered: no retry of a call cut short.
      expect(server.requests() - 1).toBe(1);
      expect(h.events.filter((e) => e.kind === 'run.retrying')).toEqual([]);
    });
  }, 30_000);
});

describe('a model that never answers', () => {
  it('is given up by subagents.modelIdleTimeoutMs, which ends the request on the wire', async () => {
    let requests = 0;
    let closed = 0;
    const server: Server = createServer((req) => {
      requests++;
      req.resume();
      // Never answers; counts the client going away.
      req.socket.on('close', () => closed++);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
    const spec = `openai-compatible:http://127.0.0.1:${(server.address() as AddressInfo).port}/v1#m1`;
    const h = makeEngine(
      { agents: {} },
      {
        settings: { model: spec, modelIdleTimeoutMs: 1000 },
        createModelResolver: () => createModelResolver({ workspaceRoot: '/', apiKey: () => undefined }),
      },
    );
    const finished = await (await h.engine.send({ prompt: 'hi' })).done;
    expect(finished.status).toBe('error');
    expect(finished.error).toContain('The model sent nothing for 1 s, twice (subagents.modelIdleTimeoutMs)');
    expect(requests).toBe(2);
    // Each silent request was ended by the client, not left open.
    await until(() => closed === 2);
  }, 15_000);
});

describe("the providers' fetch", () => {
  it('follows no redirect: a server cannot send the request (and its key) to another origin', async () => {
    let elsewhere = 0;
    const other: Server = createServer((req, res) => {
      elsewhere++;
      res.end();
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const target = `http://127.0.0.1:${(other.address() as AddressInfo).port}/v1/chat/completions`;
    let auth: string | undefined;
    const redirecting: Server = createServer((req, res) => {
      auth = req.headers.authorization;
      req.resume();
      res.writeHead(307, { location: target });
      res.end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    for (const s of [other, redirecting])
      closers.push(() => new Promise<void>((resolve) => (s.closeAllConnections(), s.close(() => resolve()))));
    const spec = `openai-compatible:http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/v1#m1`;
    const h = makeEngine(
      { agents: {} },
      {
        settings: { model: spec },
        createModelResolver: () => createModelResolver({ workspaceRoot: '/', apiKey: () => 'sk-secret', keyAllowed: () => true }),
      },
    );
    const finished = await (await h.engine.send({ prompt: 'hi' })).done;
    expect(auth).toBe('Bearer sk-secret');
    expect(finished.status).toBe('error');
    expect(finished.error).toContain(`answered with a redirect (307 to ${target}). Redirects are not followed`);
    expect(elsewhere).toBe(0);
  });
});

/** Resolves once `ready` holds, checked after each turn of the event loop (no fixed sleep). */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((r) => setImmediate(r));
}

describe('a provider that keeps failing', () => {
  it("ends the child as failed with the provider's error once it has failed for the idle timeout, and the parent gets it", async () => {
    // Every call fails, slowly: a 503 after 300 ms.
    const delayed = await slowFailures(300, 'model is loading, try later');
    const h = makeEngine(
      { agents: {} },
      {
        agents: { local: agent('a local model', { model: `openai-compatible:${delayed.baseURL}#m1` }) },
        settings: { modelIdleTimeoutMs: 1000 },
        model: (c) => (c.agent === 'supervisor' ? supervisor : undefined),
      },
    );
    const supervisor = programmedModel(({ call }) =>
      call === 0 ? { toolCalls: [{ tool: 'delegate_task', input: { task: 'summarise', agents: ['local'] } }] } : { text: 'told' },
    );
    const started = Date.now();
    const finished = await (await h.engine.send({ prompt: 'go' })).done;
    expect(finished.status).toBe('ok');
    const results = h.events.find((e): e is RunEventOf<'tool.finished'> => e.kind === 'tool.finished' && e.tool === 'delegate_task')!
      .output as RunResult[];
    expect(results[0]).toMatchObject({ agent: 'local', status: 'error' });
    expect(results[0]!.error).toContain('503: model is loading, try later');
    expect(results[0]!.error).toContain('so it was not tried again');
    // 300 ms of failing plus a backoff of about a second is past the 1 s cap: one request, no wait.
    expect(delayed.requests()).toBe(1);
    expect(Date.now() - started).toBeLessThan(5000);
  }, 30_000);
});

/** A server whose every request fails with a 503 after `delayMs`. */
async function slowFailures(delayMs: number, message: string): Promise<{ baseURL: string; requests: () => number }> {
  let requests = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests++;
      setTimeout(() => {
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message, type: 'server_error', code: null } }));
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests: () => requests };
}

const usage = (input: number, output: number, cacheRead = 0) => ({
  inputTokens: { total: input, noCache: input - cacheRead, cacheRead, cacheWrite: 0 },
  outputTokens: { total: output, text: output, reasoning: 0 },
});

/** A child model whose first call fails after reading the prompt (900 tokens reported, 800 of them cached), and whose retry answers. */
function failsOnceAfterReading(): MockLanguageModelV4 {
  let call = 0;
  return new MockLanguageModelV4({
    doStream: async () => {
      const first = call++ === 0;
      const error = new APICallError({
        message: 'overloaded',
        url: 'http://model.test',
        requestBodyValues: {},
        statusCode: 503,
        responseHeaders: { 'retry-after-ms': '1' },
      });
      const parts: LanguageModelV4StreamPart[] = first
        ? [
            { type: 'stream-start', warnings: [] },
            { type: 'error', error },
            { type: 'finish', finishReason: { unified: 'error', raw: 'error' }, usage: usage(900, 0, 800) },
          ]
        : [
            { type: 'stream-start', warnings: [] },
            { type: 'text-start', id: 't' },
            { type: 'text-delta', id: 't', delta: 'report' },
            { type: 'text-end', id: 't' },
            { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(3, 2) },
          ];
      return { stream: new ReadableStream({ start: (c) => (parts.forEach((p) => c.enqueue(p)), c.close()) }) };
    },
  });
}

describe('a retried call', () => {
  function engine(maxTokens?: number) {
    const child = failsOnceAfterReading();
    const supervisor = programmedModel(({ call }) =>
      call === 0 ? { toolCalls: [{ tool: 'delegate_task', input: { task: 'summarise', agents: ['a'] } }] } : { text: 'done' },
    );
    return makeEngine(
      { agents: {} },
      {
        agents: { a: agent('does a', maxTokens === undefined ? {} : { maxTokens }) },
        model: (c) => (c.agent === 'a' ? child : supervisor),
      },
    );
  }
  const childResult = (h: ReturnType<typeof engine>) =>
    (
      h.events.find((e): e is RunEventOf<'tool.finished'> => e.kind === 'tool.finished' && e.tool === 'delegate_task')!
        .output as RunResult[]
    )[0]!;

  it("charges the tokens its failed attempt reported to the run's usage, the cached ones as cached", async () => {
    const h = engine();
    await (
      await h.engine.send({ prompt: 'go' })
    ).done;
    const result = childResult(h);
    expect(result.status).toBe('ok');
    expect(enclosedText(result.output)).toBe('report');
    expect(result.usage).toEqual({ inputTokens: 903, outputTokens: 2, totalTokens: 905, cacheReadTokens: 800 });
    const child = h.runs().find((r) => r.agent === 'a')!;
    const live = h.events
      .filter((e): e is RunEventOf<'run.usage'> => e.kind === 'run.usage' && e.runId === child.runId)
      .map((e) => [e.usage.totalTokens, e.usage.cacheReadTokens]);
    expect(live).toEqual([
      [900, 800],
      [905, 800],
    ]);
  });

  it('charges them to its token budget: a retry past the budget is not made', async () => {
    const h = engine(500);
    await (
      await h.engine.send({ prompt: 'go' })
    ).done;
    const result = childResult(h);
    expect(result.status).toBe('budget');
    expect(result.error).toContain('900 of 500 tokens');
  });
});
