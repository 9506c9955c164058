import type { LanguageModelV4 } from '@ai-sdk/provider';
import { LmChatLanguageModel } from './lmChatLanguageModel';
import type { LmCancellationToken, LmChatModel, LmFactory, LmMessage } from './lmShapes';

/**
 * The slice of the `vscode` module the vscode.lm provider uses, as structural types: the real
 * module fits it (vscodeLmBinding.ts passes it, checked by the compiler), and a unit test passes
 * fake classes of the same shape. Parts are made and recognised through these classes, because
 * the editor checks `instanceof` on what it is sent.
 */
export interface VscodeLmApi {
  LanguageModelChatMessage: {
    User(content: object[]): LmMessage;
    Assistant(content: object[]): LmMessage;
  };
  LanguageModelTextPart: new (value: string) => { value: string };
  LanguageModelToolCallPart: new (callId: string, name: string, input: object) => { callId: string; name: string; input: object };
  LanguageModelToolResultPart: new (callId: string, content: object[]) => object;
  CancellationTokenSource: new () => { token: LmCancellationToken; cancel(): void; dispose(): void };
  LanguageModelChatToolMode: { Auto: number; Required: number };
  lm: { selectChatModels(selector?: { vendor?: string; family?: string }): PromiseLike<readonly LmChatModel[]> };
}

export interface LmBinding {
  factory: LmFactory;
  /** The `vscode-lm:<vendor>/<family>` provider: the model is looked up on each call. */
  model(spec: { vendor: string; family: string }): LanguageModelV4;
  /** The editor's chat models, for the first-run choice. */
  editorChatModels(): Promise<{ vendor: string; family: string; name: string }[]>;
}

export function lmBinding(api: VscodeLmApi): LmBinding {
  const factory: LmFactory = {
    message: (role, content) =>
      role === 'user' ? api.LanguageModelChatMessage.User(content) : api.LanguageModelChatMessage.Assistant(content),
    text: (value) => new api.LanguageModelTextPart(value),
    toolCall: (callId, name, input) => new api.LanguageModelToolCallPart(callId, name, input),
    toolResult: (callId, content) => new api.LanguageModelToolResultPart(callId, content),
    readPart: (part) => {
      if (part instanceof api.LanguageModelTextPart) return { type: 'text', value: part.value };
      if (part instanceof api.LanguageModelToolCallPart)
        return { type: 'tool-call', callId: part.callId, name: part.name, input: part.input };
      return undefined;
    },
    cancellation: () => new api.CancellationTokenSource(),
    toolMode: { auto: api.LanguageModelChatToolMode.Auto, required: api.LanguageModelChatToolMode.Required },
  };
  return {
    factory,
    model: (spec) => {
      const select = async () => (await api.lm.selectChatModels({ vendor: spec.vendor, family: spec.family }))[0];
      return new LmChatLanguageModel(spec, select, factory);
    },
    editorChatModels: async () => (await api.lm.selectChatModels()).map((m) => ({ vendor: m.vendor, family: m.family, name: m.name })),
  };
}
