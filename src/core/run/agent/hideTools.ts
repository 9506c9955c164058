import type { LanguageModel } from 'ai';
import type { AiRuntime } from './loadAiRuntime';

/**
 * A model that is never told about the `hidden` tools, while the SDK still knows them and so
 * executes a call to one (a forged call: the model was not offered it) through its stand-in.
 * The SDK's own `activeTools` cannot do this: it drops inactive tools from execution too, so a
 * forged call would end as an unknown tool, not as our refusal telling the child what to do.
 */
export function hideTools({ wrapLanguageModel }: AiRuntime, model: LanguageModel, hidden: readonly string[]): LanguageModel | undefined {
  if (hidden.length === 0) return model;
  // A model given by id goes through a gateway we cannot wrap; the caller then drops the stand-ins.
  if (typeof model === 'string') return undefined;
  return wrapLanguageModel({
    model,
    middleware: {
      transformParams: async ({ params }) => ({
        ...params,
        tools: params.tools?.filter((t) => !hidden.includes(t.name)),
        // A tool choice naming a hidden tool would reveal it; fall back to the model's own choice.
        toolChoice:
          params.toolChoice?.type === 'tool' && hidden.includes(params.toolChoice.toolName) ? { type: 'auto' } : params.toolChoice,
      }),
    },
  });
}
