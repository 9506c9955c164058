import { APICallError } from '@ai-sdk/provider';
import { isStepCount, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { classifyError } from '../../../src/core/models/classifyError';
import { LmChatLanguageModel } from '../../../src/host/models/lm/lmChatLanguageModel';
import type { LmCancellationToken, LmChatModel, LmFactory, LmMessage, LmRequestOptions } from '../../../src/host/models/lm/lmShapes';
import { Message, Text, ToolCall, ToolResult } from '../fakes/lmParts';

// The vscode.lm adapter driven by fake objects of the vscode.lm shape: no vscode module at all.

/** Something the adapter must skip (a part kind it does not know). */
class Thinking {
  constructor(readonly thought: string) {}
}

class TokenSource {
  cancelled = false;
  disposed = false;
  private release!: () => void;
  readonly token: LmCancellationToken & { whenCancelled: Promise<void> };
  constructor() {
    const whenCancelled = new Promise<void>((resolve) => (this.release = resolve));
    const isCancelled = () => this.cancelled;
    this.token = {
      get isCancellationRequested() {
        return isCancelled();
      },
      whenCancelled,
    };
  }
  cancel() {
    this.cancelled = true;
    this.release();
  }
  dispose() {
    this.disposed = true;
  }
}

const USER = 1;
const ASSISTANT = 2;
const sources: TokenSource[] = [];
const factory: LmFactory = {
  message: (role, content) => new Message(role === 'user' ? USER : ASSISTANT, content),
  text: (value) => new Text(value),
  toolCall: (callId, name, input) => new ToolCall(callId, name, input),
  toolResult: (callId, content) => new ToolResult(callId, content),
  readPart: (part) =>
    part instanceof Text
      ? { type: 'text', value: part.value }
      : part instanceof ToolCall
        ? { type: 'tool-call', callId: part.callId, name: part.name, input: part.input }
        : undefined,
  cancellation: () => {
    const s = new TokenSource();
    sources.push(s);
    return s;
  },
  toolMode: { auto: 1, required: 2 },
};

type Turn = (token: TokenSource['token']) => AsyncGenerator<unknown>;

/** A fake vscode.LanguageModelChat that answers each request with the next turn, and records requests. */
function fakeModel(turns: Turn[], extra: Partial<LmChatModel> & { fail?: Error } = {}) {
  const requests: { messages: LmMessage[]; options: LmRequestOptions }[] = [];
  const model: LmChatModel = {
    id: 'copilot-gpt-test',
    name: 'GPT Test',
    vendor: 'copilot',
    family: 'gpt-test',
    maxInputTokens: 10_000,
    sendRequest: async (messages, options, token) => {
      if (extra.fail) throw extra.fail;
      requests.push({ messages, options });
      const turn = turns[requests.length - 1]!;
      return { stream: turn(token as TokenSource['token']) };
    },
    // One token per four characters of the message's JSON: deterministic, like a real count.
    countTokens: async (text) => Math.ceil((typeof text === 'string' ? text : JSON.stringify(text)).length / 4),
    ...extra,
  };
  return { model, requests };
}

const adapter = (model: LmChatModel | undefined) =>
  new LmChatLanguageModel({ vendor: 'copilot', family: 'gpt-test' }, async () => model, factory);

describe('LmChatLanguageModel (vscode.lm as an AI SDK model)', () => {
  it("streams text as deltas, skips unknown parts, and counts usage with the model's tokenizer", async () => {
    const { model } = fakeModel([
      async function* () {
        yield new Text('Hello ');
        yield new Thinking('hmm');
        yield new Text('world');
      },
    ]);
    const result = streamText({ model: adapter(model), system: 'be kind', prompt: 'hi', maxRetries: 0 });
    const deltas: string[] = [];
    for await (const part of result.fullStream) if (part.type === 'text-delta') deltas.push(part.text);
    expect(deltas).toEqual(['Hello ', 'world']);
    const usage = await result.usage;
    expect(usage.outputTokens).toBe(Math.ceil('Hello world'.length / 4));
    expect(usage.inputTokens).toBeGreaterThan(0);
    expect(sources.at(-1)!.disposed).toBe(true);
  });

  it('passes tools over, turns a tool call into a tool-call part, and sends its result back', async () => {
    const { model, requests } = fakeModel([
      async function* () {
        yield new Text('Let me look.');
        yield new ToolCall('call-1', 'lookup', { query: 'weather' });
      },
      async function* () {
        yield new Text('It is sunny.');
      },
    ]);
    const seen: unknown[] = [];
    const lookup = tool({
      description: 'Looks things up',
      inputSchema: z.object({ query: z.string() }),
      execute: async (input) => {
        seen.push(input);
        return { forecast: 'sunny' };
      },
    });
    const result = streamText({
      model: adapter(model),
      system: 'You are a helper.',
      prompt: 'weather?',
      tools: { lookup },
      stopWhen: isStepCount(3),
      maxRetries: 0,
    });
    expect((await result.steps).map((step) => step.text)).toEqual(['Let me look.', 'It is sunny.']);
    expect(seen).toEqual([{ query: 'weather' }]);

    const first = requests[0]!;
    expect(first.options.toolMode).toBe(1);
    expect(first.options.tools).toEqual([
      { name: 'lookup', description: 'Looks things up', inputSchema: expect.objectContaining({ type: 'object' }) },
    ]);
    expect(first.options.justification).toMatch(/Subagents/);
    // The system prompt rides in the first user message; vscode.lm has no system role.
    expect(first.messages).toEqual([new Message(USER, [new Text('You are a helper.'), new Text('weather?')])]);

    const second = requests[1]!.messages;
    expect(second.slice(1)).toEqual([
      new Message(ASSISTANT, [new Text('Let me look.'), new ToolCall('call-1', 'lookup', { query: 'weather' })]),
      new Message(USER, [new ToolResult('call-1', [new Text('{"forecast":"sunny"}')])]),
    ]);
  });

  it('asks for a tool when the call requires one, and sends none when tools are off', async () => {
    const { model, requests } = fakeModel([async function* () {}, async function* () {}]);
    const noop = { type: 'function' as const, name: 'noop', inputSchema: { type: 'object' as const, properties: {} } };
    const prompt = [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'x' }] }];
    for (const toolChoice of [{ type: 'required' as const }, { type: 'none' as const }]) {
      const { stream } = await adapter(model).doStream({ prompt, tools: [noop], toolChoice });
      for await (const _ of stream);
    }
    expect(requests[0]!.options).toMatchObject({ toolMode: 2, tools: [{ name: 'noop', description: '' }] });
    expect(requests[1]!.options.tools).toBeUndefined();
  });

  it("cancels the request's CancellationToken when the call is aborted", async () => {
    const controller = new AbortController();
    const { model } = fakeModel([
      async function* (token) {
        yield new Text('partial');
        await token.whenCancelled; // a real model stops streaming once cancelled
      },
    ]);
    const result = streamText({ model: adapter(model), prompt: 'x', abortSignal: controller.signal, maxRetries: 0 });
    const kinds: string[] = [];
    for await (const part of result.fullStream) {
      kinds.push(part.type);
      if (part.type === 'text-delta') controller.abort(new Error('cancelled'));
    }
    expect(kinds).toContain('abort');
    const source = sources.at(-1)!;
    expect(source.cancelled).toBe(true);
    expect(source.disposed).toBe(true);
  });

  it('turns vscode.lm errors into provider errors the retry logic understands', async () => {
    const target = { spec: 'vscode-lm:copilot/gpt-test', modelId: 'copilot/gpt-test' };
    const failWith = async (code: string, message = 'nope') => {
      const { model } = fakeModel([], { fail: Object.assign(new Error(message), { code }) });
      return adapter(model)
        .doStream({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }] })
        .catch((e: unknown) => e);
    };
    const denied = await failWith('NoPermissions');
    expect(APICallError.isInstance(denied) && denied.statusCode).toBe(403);
    expect(classifyError(denied, target)).toMatchObject({
      kind: 'permanent',
      message: expect.stringMatching(/Manage Language Model Access/),
    });
    expect(classifyError(await failWith('Blocked', 'rate limit exceeded'), target)).toMatchObject({ kind: 'transient' });
    expect(classifyError(await failWith('NotFound'), target)).toMatchObject({ kind: 'permanent' });
    const missing = await adapter(undefined)
      .doStream({ prompt: [] })
      .catch((e: unknown) => e);
    expect(classifyError(missing, target)).toMatchObject({
      kind: 'permanent',
      message: expect.stringMatching(/No language model "copilot\/gpt-test" is available/),
    });
  });

  it('reports a prompt over maxInputTokens as too long before sending it', async () => {
    const { model, requests } = fakeModel([], { maxInputTokens: 5 });
    const error = await adapter(model)
      .doStream({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'a'.repeat(200) }] }] })
      .catch((e: unknown) => e);
    expect(requests).toHaveLength(0);
    expect(classifyError(error, { spec: 's', modelId: 'm' }).kind).toBe('overflow');
  });
});
