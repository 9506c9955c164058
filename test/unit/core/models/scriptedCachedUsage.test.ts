import { describe, expect, it } from 'vitest';
import { createModelResolver } from '../../../../src/core/models/createModelResolver';
import { parseScript, ScriptError } from '../../../../src/core/models/scriptSchema';
import type { EngineSettings } from '../../../../src/core/config/settings/engineSettings';
import type { RunEventOf } from '../../../../src/shared/events';
import { makeEngine } from '../engineHarness';

// A script turn can say a call read and wrote the provider's prompt cache; the numbers take the
// path a real provider's do (LanguageModelV4Usage, then usageOfCall) and reach run.finished.

const SCRIPT_PATH = '/cached-usage-script.json';
const SPEC = `scripted:${SCRIPT_PATH}`;

async function finishedUsage(usage: object, prices?: EngineSettings['prices']) {
  const script = parseScript({ agents: { supervisor: [{ text: 'from the cache', usage }] } }, 'inline script');
  const h = makeEngine(
    { agents: {} },
    {
      settings: { model: SPEC, ...(prices ? { prices } : {}) },
      createModelResolver: () =>
        createModelResolver({ workspaceRoot: '/', apiKey: () => undefined, specs: [SPEC], scripts: new Map([[SCRIPT_PATH, script]]) }),
    },
  );
  const top = await (await h.engine.send({ prompt: 'anything' })).done;
  expect(top.status).toBe('ok');
  return h.events.find((e): e is RunEventOf<'run.finished'> => e.kind === 'run.finished')!.usage;
}

describe('a scripted turn with cached tokens', () => {
  it("reaches the run's finished usage as a provider's cached tokens would", async () => {
    const usage = await finishedUsage({ inputTokens: 1500, outputTokens: 40, cacheReadTokens: 1200, cacheWriteTokens: 100 });
    expect(usage).toEqual({ inputTokens: 1500, outputTokens: 40, totalTokens: 1540, cacheReadTokens: 1200, cacheWriteTokens: 100 });
  });

  it('is priced by subagents.prices like any model, a scripted:* glob matching the spec', async () => {
    const price = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };
    const usage = await finishedUsage({ inputTokens: 1500, outputTokens: 40, cacheReadTokens: 1200 }, { 'scripted:*': price });
    expect(usage.cacheReadTokens).toBe(1200);
    expect(usage.costUsd).toBeCloseTo((300 * price.input + 1200 * price.cacheRead + 40 * price.output) / 1e6, 12);
  });

  it('is refused when the cached tokens are more than the input, saying inputTokens counts them', () => {
    const bad = { agents: { a: [{ usage: { inputTokens: 10, outputTokens: 1, cacheReadTokens: 8, cacheWriteTokens: 5 } }] } };
    expect(() => parseScript(bad, 'inline script')).toThrow(ScriptError);
    expect(() => parseScript(bad, 'inline script')).toThrow(
      /agents\.a\[0\]\.usage: cacheReadTokens \+ cacheWriteTokens \(13\) is more than inputTokens \(10\)/,
    );
  });

  it('is refused with a misspelt cache field (strict)', () => {
    const bad = { agents: { a: [{ usage: { inputTokens: 10, outputTokens: 1, cachedTokens: 8 } }] } };
    expect(() => parseScript(bad, 'inline script')).toThrow(/agents\.a\[0\]\.usage: Unrecognized key/);
  });
});
