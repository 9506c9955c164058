import * as vscode from 'vscode';
import { lmBinding } from './lmBinding';
import type { LmChatModel, LmMessage } from './lmShapes';

/**
 * The real vscode module behind the vscode.lm provider: only glue, the logic is in lmBinding.ts
 * (tested with fakes of this shape). The casts are safe: the adapter only hands these functions
 * parts and messages that this same binding made.
 */
const binding = lmBinding({
  LanguageModelChatMessage: {
    User: (content) => vscode.LanguageModelChatMessage.User(content as vscode.LanguageModelTextPart[]),
    Assistant: (content) => vscode.LanguageModelChatMessage.Assistant(content as vscode.LanguageModelTextPart[]),
  },
  LanguageModelTextPart: vscode.LanguageModelTextPart,
  LanguageModelToolCallPart: vscode.LanguageModelToolCallPart,
  LanguageModelToolResultPart: vscode.LanguageModelToolResultPart,
  CancellationTokenSource: vscode.CancellationTokenSource,
  LanguageModelChatToolMode: vscode.LanguageModelChatToolMode,
  lm: { selectChatModels: async (selector) => (await vscode.lm.selectChatModels(selector)).map(asLmChatModel) },
});

export const vscodeLmFactory = binding.factory;
export const vscodeLmModel = binding.model;
export const editorChatModels = binding.editorChatModels;

/** A real editor model seen through the adapter's shape (checked here by the compiler). */
function asLmChatModel(model: vscode.LanguageModelChat): LmChatModel {
  return {
    id: model.id,
    name: model.name,
    vendor: model.vendor,
    family: model.family,
    maxInputTokens: model.maxInputTokens,
    sendRequest: (messages, options, token) =>
      model.sendRequest(messages as vscode.LanguageModelChatMessage[], options, token as vscode.CancellationToken),
    countTokens: (text, token) =>
      model.countTokens(
        typeof text === 'string' ? text : (text as LmMessage as vscode.LanguageModelChatMessage),
        token as vscode.CancellationToken,
      ),
  };
}
