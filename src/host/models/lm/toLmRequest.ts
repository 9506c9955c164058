import type { LanguageModelV4CallOptions, LanguageModelV4Prompt } from '@ai-sdk/provider';
import type { LmFactory, LmMessage, LmRequestOptions } from './lmShapes';
import { toolOutputText } from '../../../core/models/toolOutputText';

/**
 * Translates an AI SDK call into a vscode.lm request. vscode.lm knows two roles, user and
 * assistant: the system prompt goes first as a user message, tool results travel in a user
 * message as LanguageModelToolResultPart, and neighbours of the same role are merged (the editor's
 * models expect the roles to alternate).
 */

export interface LmRequest {
  messages: LmMessage[];
  options: LmRequestOptions;
}

const JUSTIFICATION = 'Subagents uses this model to run the agents you ask for in the Subagents panel.';

export function toLmRequest(call: LanguageModelV4CallOptions, lm: LmFactory): LmRequest {
  return { messages: toLmMessages(call.prompt, lm), options: toLmOptions(call, lm) };
}

function toLmMessages(prompt: LanguageModelV4Prompt, lm: LmFactory): LmMessage[] {
  const turns: { role: 'user' | 'assistant'; parts: object[] }[] = [];
  const add = (role: 'user' | 'assistant', parts: object[]) => {
    if (parts.length === 0) return;
    const last = turns.at(-1);
    if (last?.role === role) last.parts.push(...parts);
    else turns.push({ role, parts });
  };
  for (const message of prompt) {
    switch (message.role) {
      case 'system':
        add('user', [lm.text(message.content)]);
        break;
      case 'user':
        add(
          'user',
          message.content.map((p) =>
            lm.text(p.type === 'text' ? p.text : `[A ${p.mediaType} attachment was left out: this model takes text only.]`),
          ),
        );
        break;
      case 'assistant': {
        const parts: object[] = [];
        for (const p of message.content) {
          if (p.type === 'text' && p.text) parts.push(lm.text(p.text));
          else if (p.type === 'tool-call') parts.push(lm.toolCall(p.toolCallId, p.toolName, asObject(p.input)));
          // Reasoning, files and provider-executed results have no vscode.lm form: left out.
        }
        add('assistant', parts);
        break;
      }
      case 'tool':
        add(
          'user',
          message.content.flatMap((p) =>
            p.type === 'tool-result' ? [lm.toolResult(p.toolCallId, [lm.text(toolOutputText(p.output))])] : [],
          ),
        );
        break;
    }
  }
  return turns.map((t) => lm.message(t.role, t.parts));
}

function toLmOptions(call: LanguageModelV4CallOptions, lm: LmFactory): LmRequestOptions {
  const choice = call.toolChoice ?? { type: 'auto' };
  let tools = (call.tools ?? []).flatMap((t) =>
    t.type === 'function' ? [{ name: t.name, description: t.description ?? '', inputSchema: t.inputSchema }] : [],
  );
  if (choice.type === 'none') tools = [];
  if (choice.type === 'tool') tools = tools.filter((t) => t.name === choice.toolName);
  const options: LmRequestOptions = { justification: JUSTIFICATION };
  if (tools.length > 0) {
    options.tools = tools;
    options.toolMode = choice.type === 'required' || choice.type === 'tool' ? lm.toolMode.required : lm.toolMode.auto;
  }
  return options;
}

/** Tool call inputs are objects in vscode.lm; the SDK may hand over a JSON string. */
function asObject(input: unknown): object {
  if (typeof input === 'string') {
    try {
      return asObject(JSON.parse(input));
    } catch {
      return { input };
    }
  }
  return typeof input === 'object' && input !== null ? input : {};
}
