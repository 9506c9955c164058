import { afterEach, describe, expect, it } from 'vitest';
import { createModelResolver } from '../../../../src/core/models/createModelResolver';
import { usageOfCall } from '../../../../src/core/models/usage/callUsage';
import type { EngineSettings } from '../../../../src/core/config/settings/engineSettings';
import type { RunEventOf } from '../../../../src/shared/events';
import { startAnthropicServer, type AnthropicServer } from '../../fakes/anthropicServer';
import { startChatServer, textReply, type ChatServer } from '../../fakes/openAiServer';
import { agent, makeEngine } from '../engineHarness';

// Issue 43 items 4 and 5 through the real engine and the vendors' real clients: a supervisor on
// "Anthropic" (a local Messages API server) delegates to a helper on an OpenAI-compatible server;
// both report cached tokens. The runs keep them, the parent's total adds them up, and a price table
// turns them into dollars, each kind of token at its own rate.

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function servers(): Promise<{ anthropic: AnthropicServer; openai: ChatServer }> {
  const anthropic = await startAnthropicServer([
    {
      toolUse: { id: 'toolu_1', name: 'delegate_task', input: { task: 'count the lines', agents: ['helper'] } },
      usage: { input: 50, cacheWrite: 2000, output: 20 },
    },
    { text: 'done', usage: { input: 30, cacheRead: 2000, cacheWrite: 100, output: 10 } },
  ]);
  // OpenAI's chat completions report the prompt tokens its cache served as prompt_tokens_details.cached_tokens.
  const usage = { prompt_tokens: 1200, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 1024 } };
  const openai = await startChatServer([textReply(['42 lines'], usage)]);
  closers.push(
    () => anthropic.close(),
    () => openai.close(),
  );
  return { anthropic, openai };
}

async function delegate(settings: Partial<EngineSettings>) {
  const { anthropic, openai } = await servers();
  const helperSpec = `openai-compatible:${openai.baseURL}#small`;
  const h = makeEngine(
    { agents: {} },
    {
      agents: { helper: agent('counts things', { model: helperSpec }) },
      settings: { model: 'anthropic:claude-sonnet-4-5', ...settings },
      createModelResolver: () =>
        createModelResolver({
          workspaceRoot: '/',
          apiKey: (provider) => (provider === 'anthropic' ? 'sk-ant-test' : undefined),
          endpoints: { anthropic: anthropic.baseURL },
        }),
    },
  );
  const top = await (await h.engine.send({ prompt: 'How many lines?' })).done;
  const finished = (agentName: string) => {
    const run = h.runs().find((r) => r.agent === agentName)!;
    return h.events.find((e): e is RunEventOf<'run.finished'> => e.kind === 'run.finished' && e.runId === run.runId)!;
  };
  return { h, top, supervisor: finished('supervisor'), helper: finished('helper'), anthropic };
}

const SUPERVISOR_USAGE = {
  inputTokens: 50 + 2000 + 30 + 2000 + 100,
  outputTokens: 30,
  totalTokens: 4210,
  cacheReadTokens: 2000,
  cacheWriteTokens: 2100,
};
const HELPER_USAGE = { inputTokens: 1200, outputTokens: 5, totalTokens: 1205, cacheReadTokens: 1024 };

describe('cached tokens', () => {
  it("are kept in each run's usage, live and finished, and added up in the parent's total", async () => {
    const { top, supervisor, helper, h } = await delegate({});
    expect(top.status).toBe('ok');
    expect(helper.usage).toEqual(HELPER_USAGE);
    expect(supervisor.usage).toEqual(SUPERVISOR_USAGE);
    expect(supervisor.totalUsage).toEqual({
      inputTokens: 4180 + 1200,
      outputTokens: 35,
      totalTokens: 5415,
      cacheReadTokens: 3024,
      cacheWriteTokens: 2100,
    });
    // The live count (run.usage) agrees with the final one, cache and all.
    const live = h.events.filter((e): e is RunEventOf<'run.usage'> => e.kind === 'run.usage' && e.runId === supervisor.runId);
    expect(live.at(-1)!.usage).toEqual(SUPERVISOR_USAGE);
    // No price table: tokens only, no cost and nothing said about prices.
    expect(JSON.stringify(h.events)).not.toMatch(/costUsd|unpricedTokens/);
  });
});

describe('subagents.prices', () => {
  const claude = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };

  it('prices each run by its own model, cache reads and writes at their own rates, and adds the costs up the tree', async () => {
    const { supervisor, helper } = await delegate({
      prices: { 'anthropic:claude-*': claude, 'openai-compatible:*#small': { input: 1, output: 2, cacheRead: 0.1 } },
    });
    // 80 fresh input tokens at $3, 2000 read at $0.30, 2100 written at $3.75, 30 out at $15 (per million).
    const supervisorCost = (80 * 3 + 2000 * 0.3 + 2100 * 3.75 + 30 * 15) / 1e6;
    // 176 fresh at $1, 1024 read at $0.10, 5 out at $2: the cached ones are not input twice.
    const helperCost = (176 * 1 + 1024 * 0.1 + 5 * 2) / 1e6;
    expect(supervisor.usage.costUsd).toBeCloseTo(supervisorCost, 12);
    expect(helper.usage.costUsd).toBeCloseTo(helperCost, 12);
    expect(supervisor.totalUsage!.costUsd).toBeCloseTo(supervisorCost + helperCost, 12);
    expect(supervisor.totalUsage!.unpricedTokens).toBeUndefined();
  });

  it("never guesses: a model with no price has no cost, and a parent's total says how many tokens it leaves out", async () => {
    const { supervisor, helper } = await delegate({ prices: { 'anthropic:claude-*': claude } });
    expect(helper.usage).toEqual(HELPER_USAGE);
    expect(supervisor.totalUsage!.costUsd).toBeCloseTo(supervisor.usage.costUsd!, 12);
    expect(supervisor.totalUsage!.unpricedTokens).toBe(1205);
  });

  it('gives no cost to a call that used the cache when the price has no cache rate', async () => {
    const { supervisor } = await delegate({ prices: { 'anthropic:claude-sonnet-4-5': { input: 3, output: 15 } } });
    expect(supervisor.usage).toEqual(SUPERVISOR_USAGE);
  });
});

describe('usage a hostile server reports', () => {
  it('counts no negative, fractional or absurd numbers, and never more cached than input', () => {
    const reported = (total: number, cacheRead: number, output: number) => ({
      inputTokens: { total, noCache: undefined, cacheRead, cacheWrite: undefined },
      outputTokens: { total: output, text: undefined, reasoning: undefined },
    });
    expect(usageOfCall(reported(-5, -1, Number.NaN))).toEqual({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });
    expect(usageOfCall(reported(100, 500, 2.7))).toEqual({ inputTokens: 100, outputTokens: 2, totalTokens: 102, cacheReadTokens: 100 });
    expect(usageOfCall(reported(1e300, 0, 1e300)).totalTokens).toBe(2_000_000_000);
  });

  it("takes DeepSeek's prompt_cache_hit_tokens when the usual field is absent", () => {
    const usage = {
      inputTokens: { total: 900, noCache: 900, cacheRead: 0, cacheWrite: undefined },
      outputTokens: { total: 3, text: 3, reasoning: 0 },
      raw: { prompt_tokens: 900, completion_tokens: 3, prompt_cache_hit_tokens: 768, prompt_cache_miss_tokens: 132 },
    };
    expect(usageOfCall(usage)).toEqual({ inputTokens: 900, outputTokens: 3, totalTokens: 903, cacheReadTokens: 768 });
  });
});
