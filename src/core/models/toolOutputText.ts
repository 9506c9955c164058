import type { LanguageModelV4ToolResultOutput } from '@ai-sdk/provider';

/** A tool result as the plain text a model reads (for providers that take text only, and for sizing). */
export function toolOutputText(output: LanguageModelV4ToolResultOutput): string {
  switch (output.type) {
    case 'text':
    case 'error-text':
      return output.value;
    case 'json':
    case 'error-json':
      return JSON.stringify(output.value);
    case 'execution-denied':
      return `The user denied this tool call${output.reason ? `: ${output.reason}` : '.'}`;
    case 'content':
      return output.value.map((c) => (c.type === 'text' ? c.text : `[${c.type} left out]`)).join('\n');
  }
}
