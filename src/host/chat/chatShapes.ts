/**
 * The slices of `vscode.chat` and `vscode.lm` the chat participant and the language-model tool
 * use, as structural types: the real objects fit them (registerChat.ts passes them, checked by the
 * compiler), and the unit tests pass plain fakes.
 */

export interface ChatCancellationToken {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): { dispose(): void };
}

/** `vscode.ChatRequest`, as far as the participant needs it. */
export interface ChatRequestShape {
  readonly prompt: string;
  readonly command: string | undefined;
  /** The model the user picked in the chat. */
  readonly model: { readonly vendor: string; readonly family: string; readonly name: string };
}

/** `vscode.ChatContext`: earlier turns; ours carry their thread in `result.metadata`. */
export interface ChatContextShape {
  readonly history: readonly unknown[];
}

export interface ChatStreamShape {
  markdown(value: string): void;
  progress(value: string): void;
  button(command: { command: string; title: string; arguments?: unknown[] }): void;
}

export interface ChatResultShape {
  metadata?: { threadId?: string };
  errorDetails?: { message: string };
}

/** The input of `subagents_delegate`, as Copilot's agent sends it. */
export interface DelegateInput {
  agent: string;
  task: string;
  context?: string;
}
