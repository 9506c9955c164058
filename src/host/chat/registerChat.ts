import * as vscode from 'vscode';
import type { ChatCancellationToken, ChatContextShape, ChatRequestShape, ChatResultShape, ChatStreamShape } from './chatShapes';

/** What the lazily loaded engine bundle answers for Copilot Chat and Copilot's agent. */
export interface ChatHost {
  chat(
    request: ChatRequestShape,
    context: ChatContextShape,
    stream: ChatStreamShape,
    token: ChatCancellationToken,
  ): Promise<ChatResultShape>;
  prepareDelegate(input: unknown): { invocationMessage: string; confirmationMessages: { title: string; message: string } };
  invokeDelegate(input: unknown, token: ChatCancellationToken): Promise<string>;
}

/**
 * `@subagents` and `subagents_delegate`, registered at activation (their ids are in package.json)
 * but only glue: the engine bundle loads on the first request. The real vscode objects are
 * passed as the shapes chatShapes.ts names, so the compiler checks they fit.
 */
export function registerChat(host: () => ChatHost, ids: { participant: string; tool: string }, icon: vscode.Uri): vscode.Disposable[] {
  const participant = vscode.chat.createChatParticipant(ids.participant, (request, context, stream, token) =>
    host().chat(
      request,
      context,
      { markdown: (v) => stream.markdown(v), progress: (v) => stream.progress(v), button: (c) => stream.button(c) },
      token,
    ),
  );
  participant.iconPath = icon;
  const tool = vscode.lm.registerTool<unknown>(ids.tool, {
    prepareInvocation: (options) => host().prepareDelegate(options.input),
    invoke: async (options, token) =>
      new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(await host().invokeDelegate(options.input, token))]),
  });
  return [participant, tool];
}
