import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { createModelResolver } from '../../../../src/core/models/createModelResolver';
import { deferredModel } from '../../../../src/core/models/deferredModel';
import { createAnthropic, createOpenAI, createOpenAICompatible } from '../../../../src/core/models/vendorClients';

const caller = { agent: 'a', task: 't' };

describe('a vendor model before its client is loaded', () => {
  it("names itself as the client's model does (provider and model id), so slots and errors read the same", async () => {
    const resolver = await createModelResolver({ workspaceRoot: tmpdir(), apiKey: () => 'k', keyAllowed: () => true });
    const pairs = [
      [resolver.resolve('openai:gpt-x', caller), createOpenAI({ apiKey: 'k' })('gpt-x')],
      [resolver.resolve('anthropic:claude-x', caller), createAnthropic({ apiKey: 'k' })('claude-x')],
      [
        resolver.resolve('openai-compatible:http://127.0.0.1:9/v1#m', caller),
        createOpenAICompatible({ name: 'openai-compatible', baseURL: 'http://127.0.0.1:9/v1' }).chatModel('m'),
      ],
    ] as const;
    for (const [deferred, real] of pairs) {
      expect({ provider: deferred.provider, modelId: deferred.modelId, specificationVersion: deferred.specificationVersion }).toEqual({
        provider: real.provider,
        modelId: real.modelId,
        specificationVersion: real.specificationVersion,
      });
      expect(await deferred.supportedUrls).toEqual(await real.supportedUrls);
    }
  });

  it('makes its model once, on the first call, and passes each call to it', async () => {
    let made = 0;
    const calls: string[] = [];
    const inner = {
      specificationVersion: 'v4',
      provider: 'p',
      modelId: 'm',
      supportedUrls: {},
      doGenerate: async () => (calls.push('generate'), 'g'),
      doStream: async () => (calls.push('stream'), 's'),
    };
    const model = deferredModel('p', 'm', async () => (made++, inner as never));
    expect(made).toBe(0);
    const options = { prompt: [] } as never;
    expect(await Promise.all([model.doStream(options), model.doStream(options), model.doGenerate(options)])).toEqual(['s', 's', 'g']);
    expect(made).toBe(1);
    expect(calls).toEqual(['stream', 'stream', 'generate']);
  });
});
