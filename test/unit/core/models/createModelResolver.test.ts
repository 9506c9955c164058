import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isStepCount, streamText, tool } from 'ai';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createModelResolver } from '../../../../src/core/models/createModelResolver';
import { ModelSpecError } from '../../../../src/core/models/modelResolver';
import { ScriptError } from '../../../../src/core/models/scriptSchema';
import { startChatServer, textReply, type ChatServer } from '../../fakes/openAiServer';

const caller = { agent: 'a', task: 'the task' };

describe('createModelResolver: scripted', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'resolver-'));
    await writeFile(join(dir, 'demo.json'), JSON.stringify({ agents: { a: [{ text: 'first' }, { text: 'second' }] } }));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('loads a relative script against the workspace and shares turns within one resolver', async () => {
    const resolver = await createModelResolver({ workspaceRoot: dir, apiKey: () => undefined, specs: ['scripted:demo.json'] });
    const one = streamText({ model: resolver.resolve('scripted:demo.json', caller), prompt: 'x' });
    const two = streamText({ model: resolver.resolve('scripted:demo.json', caller), prompt: 'x' });
    expect(await one.text).toBe('first');
    expect(await two.text).toBe('second');
    // A new resolver (a new top-level request) replays from the first turn.
    const again = await createModelResolver({ workspaceRoot: dir, apiKey: () => undefined, specs: ['scripted:demo.json'] });
    expect(await streamText({ model: again.resolve('scripted:demo.json', caller), prompt: 'x' }).text).toBe('first');
  });

  it('reports a broken script when the resolver is made', async () => {
    await expect(createModelResolver({ workspaceRoot: dir, apiKey: () => undefined, specs: ['scripted:missing.json'] })).rejects.toThrow(
      ScriptError,
    );
  });

  it('refuses an unloaded script, a malformed spec and kinds this host lacks', async () => {
    const resolver = await createModelResolver({ workspaceRoot: dir, apiKey: () => undefined, specs: ['nonsense'] });
    expect(() => resolver.resolve('scripted:demo.json', caller)).toThrow(/was not loaded/);
    expect(() => resolver.resolve('nonsense', caller)).toThrow(ModelSpecError);
    expect(() => resolver.resolve('vscode-lm:copilot/gpt-4o', caller)).toThrow(/only available inside VS Code/);
    expect(() => resolver.resolve('anthropic:claude', caller)).toThrow(
      'The model "anthropic:claude" needs an Anthropic API key: run "Subagents: Set API Key" (the CLI reads ANTHROPIC_API_KEY).',
    );
    expect(() => resolver.resolve('openai:gpt-4o', caller)).toThrow(/needs an OpenAI API key/);
  });

  it('hands host kinds to the host providers', async () => {
    const seen: string[] = [];
    const fake = { fake: true } as unknown as LanguageModelV4;
    const resolver = await createModelResolver({
      workspaceRoot: dir,
      apiKey: () => undefined,
      providers: {
        'vscode-lm': (spec) => (seen.push(`${spec.vendor}/${spec.family}`), fake),
        openai: (spec) => (seen.push(spec.model), fake),
      },
    });
    expect(resolver.resolve('vscode-lm:copilot/gpt-4o', caller)).toBe(fake);
    expect(resolver.resolve('openai:gpt-4o', caller)).toBe(fake);
    expect(seen).toEqual(['copilot/gpt-4o', 'gpt-4o']);
  });
});

/** A chat.completions server that streams what `replies` says, one reply per request. */
function chatServer(replies: ((res: ServerResponse) => void)[]) {
  const requests: { auth: string | undefined; body: Record<string, unknown> }[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      requests.push({ auth: req.headers.authorization, body: JSON.parse(body) as Record<string, unknown> });
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const reply = replies[requests.length - 1];
      if (reply) reply(res);
      res.end('data: [DONE]\n\n');
    });
  });
  return { server, requests };
}

function chunk(res: ServerResponse, delta: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const data = {
    id: 'c1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: null }],
    ...extra,
  };
  res.write(`data: ${JSON.stringify(data)}\n\n`);
}

function finish(res: ServerResponse, reason: string, usage: { prompt_tokens: number; completion_tokens: number }) {
  const data = {
    id: 'c1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta: {}, finish_reason: reason }],
  };
  res.write(`data: ${JSON.stringify(data)}\n\n`);
  res.write(
    `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [], usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } })}\n\n`,
  );
}

describe('createModelResolver: openai-compatible against a real server', () => {
  let server: Server;
  let requests: ReturnType<typeof chatServer>['requests'];
  let baseURL: string;

  beforeAll(async () => {
    const made = chatServer([
      (res) => {
        chunk(res, {
          role: 'assistant',
          content: null,
          tool_calls: [{ index: 0, id: 'tc_1', type: 'function', function: { name: 'lookup', arguments: '' } }],
        });
        chunk(res, { tool_calls: [{ index: 0, function: { arguments: '{"que' } }] });
        chunk(res, { tool_calls: [{ index: 0, function: { arguments: 'ry":"wea' } }] });
        chunk(res, { tool_calls: [{ index: 0, function: { arguments: 'ther"}' } }] });
        finish(res, 'tool_calls', { prompt_tokens: 12, completion_tokens: 7 });
      },
      (res) => {
        chunk(res, { role: 'assistant', content: 'It is ' });
        chunk(res, { content: 'sunny ' });
        chunk(res, { content: 'today.' });
        finish(res, 'stop', { prompt_tokens: 30, completion_tokens: 4 });
      },
    ]);
    server = made.server;
    requests = made.requests;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('streams text and tool calls split across chunks, with usage and the API key', async () => {
    const resolver = await createModelResolver({
      workspaceRoot: tmpdir(),
      keyAllowed: () => true,
      apiKey: (provider) => (provider === 'openai-compatible' ? 'sk-test' : undefined),
    });
    const inputs: unknown[] = [];
    const lookup = tool({
      description: 'looks things up',
      inputSchema: z.object({ query: z.string() }),
      execute: async (input) => {
        inputs.push(input);
        return 'sunny';
      },
    });
    const result = streamText({
      model: resolver.resolve(`openai-compatible:${baseURL}#my-model`, caller),
      prompt: 'weather?',
      tools: { lookup },
      stopWhen: isStepCount(3),
    });
    const deltas: string[] = [];
    for await (const part of result.fullStream) if (part.type === 'text-delta') deltas.push(part.text);
    expect(inputs).toEqual([{ query: 'weather' }]);
    expect(deltas).toEqual(['It is ', 'sunny ', 'today.']);
    expect(await result.text).toBe('It is sunny today.');
    const usage = await result.usage;
    expect(usage.inputTokens).toBe(42);
    expect(usage.outputTokens).toBe(11);
    expect(requests).toHaveLength(2);
    expect(requests[0]!.auth).toBe('Bearer sk-test');
    expect(requests[0]!.body.model).toBe('my-model');
    expect(requests[0]!.body.stream).toBe(true);
  });
});

describe('createModelResolver: OpenAI and Anthropic against a real server', () => {
  let server: ChatServer;
  beforeAll(async () => {
    server = await startChatServer([
      { status: 401, message: 'Incorrect API key provided' },
      { status: 401, message: 'invalid x-api-key' },
    ]);
  });
  afterAll(() => server.close());

  it("send the stored key to each vendor's own endpoint and protocol", async () => {
    const resolver = await createModelResolver({
      workspaceRoot: tmpdir(),
      apiKey: (provider) => ({ openai: 'sk-openai-test', anthropic: 'sk-ant-test' })[provider as 'openai' | 'anthropic'],
      endpoints: { openai: server.baseURL, anthropic: server.baseURL },
    });
    const failure = async (spec: string) => {
      const result = streamText({ model: resolver.resolve(spec, caller), prompt: 'hi', maxRetries: 0, onError: () => {} });
      for await (const part of result.fullStream) if (part.type === 'error') return part.error;
      return undefined;
    };
    expect(await failure('openai:gpt-test')).toMatchObject({ statusCode: 401, message: 'Incorrect API key provided' });
    expect(await failure('anthropic:claude-test')).toMatchObject({ statusCode: 401 });
    const [o, a] = server.requests;
    expect(o).toMatchObject({ path: '/v1/responses', body: { model: 'gpt-test', stream: true } });
    expect(o!.headers.authorization).toBe('Bearer sk-openai-test');
    expect(a).toMatchObject({ path: '/v1/messages', body: { model: 'claude-test', stream: true } });
    expect(a!.headers['x-api-key']).toBe('sk-ant-test');
  });
});

describe('createModelResolver: where the openai-compatible key goes', () => {
  it('only where keyAllowed says (nowhere without it), and says when it kept it back', async () => {
    const server = await startChatServer([textReply(['a']), textReply(['b']), textReply(['c'])]);
    try {
      const withheld: string[] = [];
      const origin = new URL(server.baseURL).origin;
      const ask = async (keyAllowed?: (origin: string) => boolean) => {
        const resolver = await createModelResolver({
          workspaceRoot: tmpdir(),
          apiKey: () => 'sk-test',
          ...(keyAllowed ? { keyAllowed } : {}),
          onKeyWithheld: (o) => withheld.push(o),
        });
        await streamText({ model: resolver.resolve(`openai-compatible:${server.baseURL}#m`, caller), prompt: 'hi' }).text;
      };
      await ask();
      await ask((o) => o === 'http://somewhere.else');
      await ask((o) => o === origin);
      expect(server.requests.map((r) => r.headers.authorization)).toEqual([undefined, undefined, 'Bearer sk-test']);
      expect(withheld).toEqual([origin, origin]);
    } finally {
      await server.close();
    }
  });
});
