import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { afterEach, describe, expect, it } from 'vitest';
import { createModelResolver } from '../../../../src/core/models/createModelResolver';
import { MAX_CACHE_MARKS, markPromptCache } from '../../../../src/core/models/promptCache/promptCacheMarks';
import { cacheMarks, startAnthropicServer, type AnthropicReply } from '../../fakes/anthropicServer';
import { startChatServer, textReply } from '../../fakes/openAiServer';
import { agent, makeEngine } from '../engineHarness';

// Issue 43 item 3: Anthropic calls carry cache_control breakpoints (at most 4) on the tools, the
// system prompt and the conversation so far; subagents.promptCaching turns them off. Checked on
// the wire: the SDK's real Anthropic client sends to a local Messages API server that keeps bodies.

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const usage = { input: 10, output: 5 };
const delegation = (id: string): AnthropicReply => ({
  toolUse: { id, name: 'delegate_task', input: { task: 'look', agents: ['helper'] } },
  usage,
});

async function supervise(promptCaching: boolean) {
  const anthropic = await startAnthropicServer([delegation('toolu_1'), delegation('toolu_2'), { text: 'done', usage }]);
  const openai = await startChatServer([textReply(['found it']), textReply(['found it again'])]);
  closers.push(
    () => anthropic.close(),
    () => openai.close(),
  );
  const h = makeEngine(
    { agents: {} },
    {
      agents: { helper: agent('looks', { model: `openai-compatible:${openai.baseURL}#m` }) },
      settings: { model: 'anthropic:claude-sonnet-4-5', promptCaching },
      createModelResolver: () =>
        createModelResolver({
          workspaceRoot: '/',
          apiKey: (p) => (p === 'anthropic' ? 'sk-ant-test' : undefined),
          endpoints: { anthropic: anthropic.baseURL },
        }),
    },
  );
  const done = await (await h.engine.send({ prompt: 'Look twice' })).done;
  expect(done.status).toBe('ok');
  return { anthropic, openai };
}

describe('Anthropic prompt caching', () => {
  it('marks the last tool, the system prompt, the last message and the end of the previous call: never more than 4', async () => {
    const { anthropic, openai } = await supervise(true);
    expect(anthropic.requests).toHaveLength(3);
    const lastTool = `tool:${anthropic.requests[0]!.tools!.at(-1)!.name}`;
    // The tools and the system prompt are the same bytes on every call (issue 43 item 2), so their marks hit.
    expect(anthropic.requests.map(cacheMarks)).toEqual([
      [lastTool, 'system', 'message:0:user'],
      [lastTool, 'system', 'message:0:user', 'message:2:user'],
      [lastTool, 'system', 'message:2:user', 'message:4:user'],
    ]);
    for (const request of anthropic.requests) expect(cacheMarks(request).length).toBeLessThanOrEqual(MAX_CACHE_MARKS);
    // Only the tools' last one is marked, and one system block.
    expect(anthropic.requests[2]!.tools!.filter((t) => t.cache_control)).toHaveLength(1);
    expect(anthropic.requests[2]!.tools!.at(-1)!.cache_control).toEqual({ type: 'ephemeral' });
    // OpenAI-compatible servers cache a repeated prefix by themselves: nothing is marked for them.
    for (const request of openai.requests) expect(request.raw).not.toMatch(/cache_control|cacheControl/);
  });

  it('sends no marks with subagents.promptCaching off', async () => {
    const { anthropic } = await supervise(false);
    expect(anthropic.requests).toHaveLength(3);
    for (const request of anthropic.requests) expect(cacheMarks(request)).toEqual([]);
  });
});

describe('markPromptCache', () => {
  const call = (): LanguageModelV4CallOptions => ({
    prompt: [
      { role: 'system', content: 'You are careful.' },
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 't', input: '{}' }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 't', output: { type: 'text', value: 'ok' } }] },
      { role: 'user', content: [{ type: 'text', text: 'a late arrival' }] },
    ],
    tools: [
      { type: 'function', name: 'a', inputSchema: { type: 'object' } },
      { type: 'function', name: 't', inputSchema: { type: 'object' } },
    ],
  });
  const marked = (options: object) => JSON.stringify('providerOptions' in options ? options.providerOptions : {}).includes('ephemeral');

  it('leaves the messages and tools it was given unmarked: the SDK keeps them for the next step', () => {
    const original = call();
    const before = JSON.stringify(original);
    const result = markPromptCache(original);
    expect(JSON.stringify(original)).toBe(before);
    // The system prompt, the end of the call before (its answer is the assistant message), the last message.
    expect(result.prompt.map(marked)).toEqual([true, true, false, false, true]);
    expect(result.tools!.map(marked)).toEqual([false, true]);
  });

  it('keeps what a message or tool already had in its provider options', () => {
    const original = call();
    original.prompt[4] = { ...original.prompt[4]!, providerOptions: { anthropic: { other: 1 }, openai: { x: 2 } } };
    const result = markPromptCache(original);
    expect(result.prompt[4]!.providerOptions).toEqual({ anthropic: { other: 1, cacheControl: { type: 'ephemeral' } }, openai: { x: 2 } });
  });

  it('marks a call without tools or system prompt only in its conversation', () => {
    const result = markPromptCache({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] });
    expect(result.prompt.map(marked)).toEqual([true]);
    expect(result.tools).toBeUndefined();
  });
});
