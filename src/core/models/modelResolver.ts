import type { LanguageModelV4 } from '@ai-sdk/provider';

/** Who is about to call the model: the scripted model picks its turns by these. */
export interface ModelCaller {
  agent: string;
  task: string;
}

/**
 * Turns a model spec into an AI SDK model. One resolver serves one top-level request
 * (a user message and everything it sets off), so a scripted model replays from its start each time.
 */
export interface ModelResolver {
  resolve(spec: string, caller: ModelCaller): LanguageModelV4;
}

/** A spec that cannot be used, with a message that says what is wrong and what to do. */
export class ModelSpecError extends Error {
  override readonly name = 'ModelSpecError';
}
