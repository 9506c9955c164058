import { describe, expect, it } from 'vitest';
import { modelPricesSchema, priceOf } from '../../../../src/core/config/prices/modelPrices';
import { priceUsage } from '../../../../src/core/config/prices/priceUsage';
import { readEngineSettings } from '../../../../src/core/config/settings/readEngineSettings';

// Issue 43 item 5: subagents.prices, by model spec or glob, in dollars per million tokens.

const sonnet = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };
const haiku = { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 };
const anyClaude = { input: 99, output: 99 };

describe('priceOf', () => {
  const prices = { 'anthropic:claude-*': anyClaude, 'anthropic:claude-haiku-*': haiku, 'anthropic:claude-sonnet-4-5': sonnet };

  it('takes the exact spec first, then the most specific glob', () => {
    expect(priceOf('anthropic:claude-sonnet-4-5', prices)).toBe(sonnet);
    expect(priceOf('anthropic:claude-haiku-4-5', prices)).toBe(haiku);
    expect(priceOf('anthropic:claude-opus-4-1', prices)).toBe(anyClaude);
  });

  it('matches as subagents.allowedModels does: `*` across slashes, case ignored', () => {
    const local = { 'openai-compatible:http://localhost*': { input: 0, output: 0 } };
    expect(priceOf('openai-compatible:http://localhost:11434/v1#qwen3', local)).toEqual({ input: 0, output: 0 });
    expect(priceOf('ANTHROPIC:Claude-Haiku-4-5', prices)).toBe(haiku);
  });

  it('has no price for a model no entry matches: no guess', () => {
    expect(priceOf('openai:gpt-5', prices)).toBeUndefined();
    expect(priceOf('anthropic:claude', prices)).toBeUndefined();
    expect(priceOf('anthropic:claude-haiku-4-5', {})).toBeUndefined();
  });
});

describe('priceUsage', () => {
  it('prices cache reads and writes at their own rates, out of the input count, not on top of it', () => {
    const usage = {
      inputTokens: 1_000_000,
      outputTokens: 1_000_000,
      totalTokens: 2_000_000,
      cacheReadTokens: 600_000,
      cacheWriteTokens: 300_000,
    };
    // 100k fresh at $3, 600k read at $0.30, 300k written at $3.75, 1M out at $15.
    expect(priceUsage(usage, sonnet).costUsd).toBeCloseTo(0.3 + 0.18 + 1.125 + 15, 10);
  });

  it('gives no cost without a price, or when tokens of a kind used have no rate', () => {
    const usage = { inputTokens: 100, outputTokens: 10, totalTokens: 110, cacheReadTokens: 50 };
    expect(priceUsage(usage, undefined)).toEqual(usage);
    expect(priceUsage(usage, { input: 3, output: 15 })).toEqual(usage);
    expect(priceUsage({ inputTokens: 100, outputTokens: 10, totalTokens: 110 }, { input: 3, output: 15 }).costUsd).toBeCloseTo(0.00045, 12);
  });
});

describe('subagents.prices as a setting', () => {
  const read = (value: unknown, scope: 'user' | 'workspace' = 'user') =>
    readEngineSettings([{ scope, source: 'settings.json', values: { prices: value } }], { trusted: true });

  it('is empty by default, and a workspace may set it (it changes what is shown, never what agents may do)', () => {
    expect(readEngineSettings([], { trusted: true }).settings.prices).toEqual({});
    expect(read({ 'anthropic:*': sonnet }, 'workspace').settings.prices).toEqual({ 'anthropic:*': sonnet });
  });

  it('refuses a negative rate, a missing output rate or an unknown field, saying which', () => {
    for (const bad of [{ x: { input: -1, output: 1 } }, { x: { input: 1 } }, { x: { input: 1, output: 1, cached: 1 } }]) {
      const { settings, problems } = read(bad);
      expect(settings.prices).toEqual({});
      expect(problems).toHaveLength(1);
      expect(problems[0]!.setting).toBe('subagents.prices');
    }
    expect(modelPricesSchema.safeParse({ '': sonnet }).success).toBe(false);
  });
});

describe('a hostile price table (a workspace may write it)', () => {
  it('matches a pattern built to backtrack at once, not after minutes', { timeout: 2000 }, () => {
    const pattern = `${'*a'.repeat(25)}*b`;
    expect(priceOf(`anthropic:${'a'.repeat(60)}`, { [pattern]: { input: 1, output: 1 } })).toBeUndefined();
  });

  it('refuses a rate so large that a cost could overflow (a thread with an infinite cost would not load)', () => {
    const { settings, problems } = readEngineSettings(
      [{ scope: 'workspace', source: 's', values: { prices: { '*': { input: 1e308, output: 1 } } } }],
      {
        trusted: true,
      },
    );
    expect(settings.prices).toEqual({});
    expect(problems[0]!.setting).toBe('subagents.prices');
  });
});
