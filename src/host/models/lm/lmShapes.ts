/**
 * The slice of `vscode.lm` the model adapter uses, as plain structural types. The adapter is
 * written against these (not the vscode module), so a unit test drives it with fake objects; the
 * real `vscode.LanguageModelChat` fits them, and `vscodeLmBinding.ts` makes the real parts.
 */

/** A chat message as `vscode.LanguageModelChatMessage` holds it; made only through LmFactory. */
export interface LmMessage {
  readonly role: number;
  readonly content: readonly object[];
}

export interface LmTool {
  name: string;
  description: string;
  inputSchema?: object;
}

export interface LmRequestOptions {
  justification?: string;
  tools?: LmTool[];
  toolMode?: number;
}

export interface LmCancellationToken {
  readonly isCancellationRequested: boolean;
}

export interface LmChatResponse {
  stream: AsyncIterable<unknown>;
}

/** `vscode.LanguageModelChat`, as far as the adapter needs it. */
export interface LmChatModel {
  readonly id: string;
  readonly name: string;
  readonly vendor: string;
  readonly family: string;
  readonly maxInputTokens: number;
  sendRequest(messages: LmMessage[], options: LmRequestOptions, token: LmCancellationToken): PromiseLike<LmChatResponse>;
  countTokens(text: string | LmMessage, token?: LmCancellationToken): PromiseLike<number>;
}

/** A part of a response, once recognised. */
export type LmResponsePart = { type: 'text'; value: string } | { type: 'tool-call'; callId: string; name: string; input: object };

/**
 * Makes and reads the vscode.lm objects whose class matters at run time (the editor checks
 * `instanceof` on what it is sent), and bridges cancellation.
 */
export interface LmFactory {
  message(role: 'user' | 'assistant', content: object[]): LmMessage;
  text(value: string): object;
  toolCall(callId: string, name: string, input: object): object;
  toolResult(callId: string, content: object[]): object;
  /** Recognises a streamed part; undefined for kinds the adapter ignores. */
  readPart(part: unknown): LmResponsePart | undefined;
  cancellation(): { token: LmCancellationToken; cancel(): void; dispose(): void };
  toolMode: { auto: number; required: number };
}
