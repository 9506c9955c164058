import { streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { lmBinding, type VscodeLmApi } from '../../../src/host/models/lm/lmBinding';
import type { LmChatModel, LmMessage, LmRequestOptions } from '../../../src/host/models/lm/lmShapes';
import { Message, Text, ToolCall, ToolResult } from '../fakes/lmParts';

// The vscode.lm provider as the extension wires it (lmBinding over the vscode module), driven by
// fake classes of the vscode.lm shape: which model it selects, what it sends, what it reads back.

class TokenSource {
  static made: TokenSource[] = [];
  cancelled = false;
  disposed = false;
  readonly token = { isCancellationRequested: false };
  constructor() {
    TokenSource.made.push(this);
  }
  cancel() {
    this.cancelled = true;
    this.token.isCancellationRequested = true;
  }
  dispose() {
    this.disposed = true;
  }
}

function fakeVscode(models: LmChatModel[]) {
  const selections: ({ vendor?: string; family?: string } | undefined)[] = [];
  const api: VscodeLmApi = {
    LanguageModelChatMessage: { User: (content) => new Message(1, content), Assistant: (content) => new Message(2, content) },
    LanguageModelTextPart: Text,
    LanguageModelToolCallPart: ToolCall,
    LanguageModelToolResultPart: ToolResult,
    CancellationTokenSource: TokenSource,
    LanguageModelChatToolMode: { Auto: 1, Required: 2 },
    lm: {
      selectChatModels: async (selector) => {
        selections.push(selector);
        return models.filter(
          (m) => (!selector?.vendor || m.vendor === selector.vendor) && (!selector?.family || m.family === selector.family),
        );
      },
    },
  };
  return { api, selections };
}

function chatModel(vendor: string, family: string, answer: object[]) {
  const requests: { messages: LmMessage[]; options: LmRequestOptions }[] = [];
  const model: LmChatModel = {
    id: `${vendor}-${family}`,
    name: `${vendor} ${family}`,
    vendor,
    family,
    maxInputTokens: 100_000,
    sendRequest: async (messages, options) => {
      requests.push({ messages, options });
      return {
        stream: (async function* () {
          yield* answer;
        })(),
      };
    },
    countTokens: async (text) => Math.ceil((typeof text === 'string' ? text : JSON.stringify(text)).length / 4),
  };
  return { model, requests };
}

describe('the vscode.lm binding', () => {
  it('selects the model of the spec on each call, sends messages made of vscode.lm parts, and reads text and tool calls back', async () => {
    const wanted = chatModel('copilot', 'gpt-4o', [new Text('Hello'), { unknown: 'part' }, new ToolCall('c1', 'read_file', { path: 'a' })]);
    const other = chatModel('copilot', 'claude', [new Text('wrong model')]);
    const { api, selections } = fakeVscode([other.model, wanted.model]);
    const binding = lmBinding(api);
    const result = streamText({
      model: binding.model({ vendor: 'copilot', family: 'gpt-4o' }),
      system: 'Be brief.',
      prompt: 'hi',
      maxRetries: 0,
    });
    const parts: string[] = [];
    for await (const p of result.fullStream)
      if (p.type === 'text-delta' || p.type === 'tool-call') parts.push(p.type === 'text-delta' ? p.text : `call ${p.toolName}`);
    expect(parts).toEqual(['Hello', 'call read_file']);
    expect(selections).toEqual([{ vendor: 'copilot', family: 'gpt-4o' }]);
    expect(other.requests).toHaveLength(0);
    const sent = wanted.requests[0]!.messages;
    expect(sent).toEqual([new Message(1, [new Text('Be brief.'), new Text('hi')])]);
    expect(sent[0]).toBeInstanceOf(Message);
    expect(sent[0]!.content[0]).toBeInstanceOf(Text);
    // The request's token comes from the editor's CancellationTokenSource, disposed when done.
    expect(TokenSource.made.at(-1)!.disposed).toBe(true);
  });

  it('makes tool results and tool modes of the editor', () => {
    const { factory } = lmBinding(fakeVscode([]).api);
    expect(factory.toolResult('c1', [factory.text('ok')])).toEqual(new ToolResult('c1', [new Text('ok')]));
    expect(factory.toolCall('c1', 'x', {})).toBeInstanceOf(ToolCall);
    expect(factory.toolMode).toEqual({ auto: 1, required: 2 });
    expect(factory.readPart(new Text('t'))).toEqual({ type: 'text', value: 't' });
    // A plain object with the same fields is not the editor's part: only real parts are read.
    expect(factory.readPart({ value: 't' })).toBeUndefined();
  });

  it('says which model is missing when the editor has none of the spec', async () => {
    const binding = lmBinding(fakeVscode([]).api);
    const error = await Promise.resolve(
      binding.model({ vendor: 'copilot', family: 'nope' }).doStream({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }] }),
    ).catch((e: unknown) => e);
    expect(String(error)).toMatch(/copilot\/nope/);
  });

  it("lists the editor's chat models for the first-run choice", async () => {
    const binding = lmBinding(fakeVscode([chatModel('copilot', 'gpt-4o', []).model, chatModel('ollama', 'llama', []).model]).api);
    expect(await binding.editorChatModels()).toEqual([
      { vendor: 'copilot', family: 'gpt-4o', name: 'copilot gpt-4o' },
      { vendor: 'ollama', family: 'llama', name: 'ollama llama' },
    ]);
  });
});
