import type { LanguageModelV4 } from '@ai-sdk/provider';

/**
 * A model that is `model` with some of its calls replaced: the shape every wrapper of a run's model
 * (its budget, its idle timeout) shares, so each says only what it changes.
 */
export function wrapModel(model: LanguageModelV4, calls: Partial<Pick<LanguageModelV4, 'doStream' | 'doGenerate'>>): LanguageModelV4 {
  return {
    specificationVersion: 'v4',
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: model.supportedUrls,
    doGenerate: calls.doGenerate ?? ((call) => model.doGenerate(call)),
    doStream: calls.doStream ?? ((call) => model.doStream(call)),
  };
}
