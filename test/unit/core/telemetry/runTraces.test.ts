import { afterEach, describe, expect, it } from 'vitest';
import { createModelResolver } from '../../../../src/core/models/createModelResolver';
import type { EngineSettings } from '../../../../src/core/config/settings/engineSettings';
import { Redactor } from '../../../../src/core/access/secrets/redactor';
import { startAnthropicServer, type AnthropicReply } from '../../fakes/anthropicServer';
import { startChatServer, textReply } from '../../fakes/openAiServer';
import { startOtlpReceiver, type ReceivedSpan } from '../../fakes/otlpReceiver';
import { agent, makeEngine } from '../engineHarness';

// Issue 43 item 6 through the real engine, the vendors' real clients and the official OTLP/HTTP
// exporter, into a local collector: a supervisor on "Anthropic" delegates to a helper on an
// OpenAI-compatible server, both reporting cached tokens. Each run is an invoke_agent span, each
// tool call an execute_tool span, the helper's run under the supervisor's delegate_task call.

const SECRET = 'sk-ant-secret-0123456789';
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const DELEGATION: AnthropicReply[] = [
  {
    toolUse: { id: 'toolu_1', name: 'delegate_task', input: { task: 'count the lines', agents: ['helper'] } },
    usage: { input: 50, cacheWrite: 2000, output: 20 },
  },
  { text: 'There are 42.', usage: { input: 30, cacheRead: 2000, cacheWrite: 100, output: 10 } },
];

async function tracedRun(
  settings: (collector: string) => Partial<EngineSettings>,
  prompt = 'How many lines?',
  replies: AnthropicReply[] = DELEGATION,
  status = 'ok',
) {
  const anthropic = await startAnthropicServer(replies);
  const usage = { prompt_tokens: 1200, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 1024 } };
  const openai = await startChatServer([textReply(['42 lines'], usage)]);
  const receiver = await startOtlpReceiver();
  closers.push(
    () => anthropic.close(),
    () => openai.close(),
    () => receiver.close(),
  );
  const h = makeEngine(
    { agents: {} },
    {
      agents: { helper: agent('counts things', { model: `openai-compatible:${openai.baseURL}#small` }) },
      settings: { model: 'anthropic:claude-sonnet-4-5', ...settings(receiver.url) },
      redactor: Redactor.fromEnvironment({ ANTHROPIC_API_KEY: SECRET }),
      createModelResolver: () =>
        createModelResolver({
          workspaceRoot: '/',
          apiKey: (provider) => (provider === 'anthropic' ? SECRET : undefined),
          endpoints: { anthropic: anthropic.baseURL },
        }),
    },
  );
  const sent = await h.engine.send({ prompt });
  const top = await sent.done;
  await h.engine.whenQuiet(sent.threadId);
  await h.engine.closeTraces();
  expect(top.status).toBe(status);
  return { receiver, h, bodies: receiver.requests.map((r) => r.body).join('\n') };
}

const one = (spans: ReceivedSpan[], name: string): ReceivedSpan => {
  const found = spans.filter((s) => s.name === name);
  expect(found, `one "${name}" among: ${spans.map((s) => s.name).join(', ')}`).toHaveLength(1);
  return found[0]!;
};

describe('traces, received by a local OTLP/HTTP collector', () => {
  it('make each run an invoke_agent span and each tool call an execute_tool span, parented as the run tree, with their tokens', async () => {
    const { receiver } = await tracedRun((url) => ({ 'telemetry.otlpEndpoint': url }));
    const spans = receiver.spans;
    const supervisor = one(spans, 'invoke_agent supervisor');
    const delegate = one(spans, 'execute_tool delegate_task');
    const helper = one(spans, 'invoke_agent helper');
    // One trace; the helper's run under the call that started it, that call under a step of the supervisor's run.
    expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
    expect(supervisor.parentSpanId).toBe('');
    expect(helper.parentSpanId).toBe(delegate.spanId);
    const step = spans.find((s) => s.spanId === delegate.parentSpanId)!;
    expect(step.name).toMatch(/^step \d+$/);
    expect(step.parentSpanId).toBe(supervisor.spanId);
    // The model calls (the SDK's `chat` spans) go under each run's steps.
    const chats = spans.filter((s) => s.name.startsWith('chat '));
    expect(chats.length).toBe(3);
    for (const chat of chats) {
      const chatStep = spans.find((s) => s.spanId === chat.parentSpanId)!;
      expect([supervisor.spanId, helper.spanId]).toContain(chatStep.parentSpanId);
    }
    expect(supervisor.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'supervisor',
      'gen_ai.usage.input_tokens': 50 + 2000 + 30 + 2000 + 100,
      'gen_ai.usage.output_tokens': 30,
      'gen_ai.usage.cache_read.input_tokens': 2000,
      'gen_ai.usage.cache_creation.input_tokens': 2100,
      'subagents.run.status': 'ok',
    });
    expect(helper.attributes).toMatchObject({
      'gen_ai.agent.name': 'helper',
      'gen_ai.usage.input_tokens': 1200,
      'gen_ai.usage.output_tokens': 5,
      'gen_ai.usage.cache_read.input_tokens': 1024,
      'subagents.run.depth': 1,
    });
    expect(delegate.attributes).toMatchObject({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'delegate_task' });
    expect(supervisor.status.code).toBe(1);
    expect(supervisor.resource['service.name']).toBe('subagents');
  });

  it('hold no prompt, output, instructions or tool arguments unless recordContent says so', async () => {
    const off = await tracedRun((url) => ({ 'telemetry.otlpEndpoint': url }), 'How many lines in the zebra file?');
    expect(off.receiver.spans.length).toBeGreaterThan(5);
    for (const text of [
      'zebra',
      'There are 42',
      '42 lines',
      'count the lines',
      'gen_ai.input.messages',
      'gen_ai.output.messages',
      'gen_ai.system_instructions',
      'gen_ai.tool.call.arguments',
    ])
      expect(off.bodies, text).not.toContain(text);
    const on = await tracedRun(
      (url) => ({ 'telemetry.otlpEndpoint': url, 'telemetry.recordContent': true }),
      'How many lines in the zebra file?',
    );
    const supervisor = one(on.receiver.spans, 'invoke_agent supervisor');
    expect(String(supervisor.attributes['gen_ai.input.messages'])).toContain('zebra');
    expect(String(supervisor.attributes['gen_ai.output.messages'])).toContain('There are 42');
    expect(String(one(on.receiver.spans, 'execute_tool delegate_task').attributes['gen_ai.tool.call.arguments'])).toContain(
      'count the lines',
    );
  });

  it('never carry a secret, even in recorded content', async () => {
    const { bodies } = await tracedRun(
      (url) => ({ 'telemetry.otlpEndpoint': url, 'telemetry.recordContent': true }),
      `Is ${SECRET} a valid key?`,
    );
    expect(bodies).toContain('[redacted ANTHROPIC_API_KEY]');
    // (Not toContain: a failure would print the whole export.)
    expect(bodies.includes(SECRET), 'the key is in what was sent').toBe(false);
  });

  it('mark a failed run as an error, saying why, and keep the secret in that reason out', async () => {
    const { receiver, bodies } = await tracedRun(
      (url) => ({ 'telemetry.otlpEndpoint': url }),
      'Hello',
      [{ status: 400, message: `invalid x-api-key ${SECRET}` }],
      'error',
    );
    const supervisor = one(receiver.spans, 'invoke_agent supervisor');
    expect(supervisor.status.code).toBe(2);
    expect(supervisor.status.message).toMatch(/invalid x-api-key \[redacted ANTHROPIC_API_KEY\]/);
    expect(supervisor.attributes).toMatchObject({ 'error.type': 'error', 'subagents.run.status': 'error' });
    expect(bodies.includes(SECRET), 'the key is in what was sent').toBe(false);
  });

  it('are not sent while no endpoint is set', async () => {
    const { receiver } = await tracedRun(() => ({}));
    expect(receiver.requests).toEqual([]);
  });
});
