import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import type { childModel } from '../mockModels';

type ModelV4 = ReturnType<typeof childModel>;
type CallOptionsV4 = Parameters<ModelV4['doStream']>[0];

/**
 * The bench's ai@7 mock models (LanguageModelV4) as LanguageModelV3, for ai@6 and VoltAgent: the
 * same script, the same timing, the very same stream object. The casts hold because the mocks read
 * only the role of the prompt's last message, and emit only parts both versions define alike.
 */
export function asV3(model: ModelV4): LanguageModelV3 {
  return {
    specificationVersion: 'v3',
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error('the bench only streams')),
    doStream: async (options: LanguageModelV3CallOptions) => {
      const { stream } = await model.doStream(options as unknown as CallOptionsV4);
      return { stream: stream as unknown as ReadableStream<LanguageModelV3StreamPart> };
    },
  };
}
