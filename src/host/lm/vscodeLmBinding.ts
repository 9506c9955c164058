import * as vscode from 'vscode';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { LmChatLanguageModel } from './lmChatLanguageModel';
import type { LmChatModel, LmFactory, LmMessage } from './lmShapes';

/**
 * The real vscode.lm classes behind the adapter's factory. The casts are safe: the adapter only
 * hands these functions parts and messages that this same factory made.
 */
export const vscodeLmFactory: LmFactory = {
  message: (role, content) =>
    role === 'user'
      ? vscode.LanguageModelChatMessage.User(content as vscode.LanguageModelTextPart[])
      : vscode.LanguageModelChatMessage.Assistant(content as vscode.LanguageModelTextPart[]),
  text: (value) => new vscode.LanguageModelTextPart(value),
  toolCall: (callId, name, input) => new vscode.LanguageModelToolCallPart(callId, name, input),
  toolResult: (callId, content) => new vscode.LanguageModelToolResultPart(callId, content),
  readPart: (part) => {
    if (part instanceof vscode.LanguageModelTextPart) return { type: 'text', value: part.value };
    if (part instanceof vscode.LanguageModelToolCallPart) return { type: 'tool-call', callId: part.callId, name: part.name, input: part.input };
    return undefined;
  },
  cancellation: () => new vscode.CancellationTokenSource(),
  toolMode: { auto: vscode.LanguageModelChatToolMode.Auto, required: vscode.LanguageModelChatToolMode.Required },
};

/** A real editor model seen through the adapter's shape (checked here by the compiler). */
function asLmChatModel(model: vscode.LanguageModelChat): LmChatModel {
  return {
    id: model.id,
    name: model.name,
    vendor: model.vendor,
    family: model.family,
    maxInputTokens: model.maxInputTokens,
    sendRequest: (messages, options, token) => model.sendRequest(messages as vscode.LanguageModelChatMessage[], options, token as vscode.CancellationToken),
    countTokens: (text, token) => model.countTokens(typeof text === 'string' ? text : (text as LmMessage as vscode.LanguageModelChatMessage), token as vscode.CancellationToken),
  };
}

/** The `vscode-lm:<vendor>/<family>` provider: the model is looked up on each call. */
export function vscodeLmModel(spec: { vendor: string; family: string }): LanguageModelV4 {
  const select = async () => {
    const [model] = await vscode.lm.selectChatModels({ vendor: spec.vendor, family: spec.family });
    return model ? asLmChatModel(model) : undefined;
  };
  return new LmChatLanguageModel(spec, select, vscodeLmFactory);
}

/** The editor's chat models, for the first-run choice. */
export async function editorChatModels(): Promise<{ vendor: string; family: string; name: string }[]> {
  const models = await vscode.lm.selectChatModels();
  return models.map((m) => ({ vendor: m.vendor, family: m.family, name: m.name }));
}
