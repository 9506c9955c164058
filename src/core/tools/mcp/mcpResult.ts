import { wrapUntrusted } from '../../access/untrusted/untrustedText';
import { capText } from '../../platform/processes/outputCap';
import type { ResultContent, ToolCallResult } from './mcpTypes';

/** As much of a result as other tools return (run_command's cap). */
export const MAX_MCP_OUTPUT = 30_000;

/**
 * A tool result as the model reads it: text as text, images, audio and resources summarised in a
 * line each (the model gets no binary data), structured content as JSON when there is no text;
 * capped like other tools' output, and marked as the server's words, not the user's. `isError`
 * results come back as `{error}`, which the model and the panel read as a failed call.
 */
export function mcpResultForModel(toolName: string, result: ToolCallResult): string | { error: string } {
  const parts = (result.content ?? []).map(describeContent).filter((t) => t !== '');
  if (parts.length === 0 && result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent, null, 2));
  const whole = parts.join('\n\n') || (result.isError ? 'the tool failed and said nothing more' : '(the tool returned nothing)');
  const { text, cutChars } = capText(whole, MAX_MCP_OUTPUT);
  const body = cutChars > 0 ? `${text}\n[${cutChars} characters of this result were cut from the middle.]` : text;
  const wrapped = wrapUntrusted({ kind: 'mcp-result', author: `the MCP tool ${toolName}` }, body);
  return result.isError ? { error: wrapped } : wrapped;
}

function describeContent(item: ResultContent): string {
  switch (item.type) {
    case 'text':
      return item.text ?? '';
    case 'image':
    case 'audio':
      return `[${item.type} (${item.mimeType ?? 'unknown type'}, ${sizeOf(item.data)}): not shown here]`;
    case 'resource': {
      const r = item.resource ?? {};
      const size = r.text !== undefined ? `${r.text.length} characters` : sizeOf(r.blob);
      return `[resource ${r.uri ?? '(no uri)'} (${r.mimeType ?? 'unknown type'}, ${size}): not shown here]`;
    }
    case 'resource_link':
      return `[link to resource ${item.uri ?? '(no uri)'}${item.name ? ` "${item.name}"` : ''}${item.mimeType ? ` (${item.mimeType})` : ''}]`;
    default:
      return `[${item.type} content: not shown here]`;
  }
}

/** A base64 payload's decoded size, in words. */
function sizeOf(base64: string | undefined): string {
  if (!base64) return 'empty';
  const bytes = Math.floor((base64.length * 3) / 4);
  return bytes >= 1024 ? `${Math.round(bytes / 1024)} KB` : `${bytes} bytes`;
}
