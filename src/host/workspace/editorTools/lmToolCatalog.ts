import type { EditorToolCatalog, EditorToolPart } from '../../../core/tools/editorTools/editorToolCatalog';

/**
 * The slice of the `vscode` module the editor tools use, as structural types: the real module
 * fits it (vscodeEditorTools.ts passes it, checked by the compiler), a unit test passes fakes.
 */
export interface VscodeLmToolsApi {
  lm: {
    readonly tools: readonly {
      readonly name: string;
      readonly description: string;
      readonly inputSchema: object | undefined;
      readonly tags: readonly string[];
    }[];
    invokeTool(
      name: string,
      options: { input: object; toolInvocationToken: undefined },
      token: unknown,
    ): PromiseLike<{ readonly content: readonly unknown[] }>;
  };
  LanguageModelTextPart: new (value: string) => { value: string };
  CancellationTokenSource: new () => { token: unknown; cancel(): void; dispose(): void };
}

/**
 * `vscode.lm.tools` and `vscode.lm.invokeTool` as the engine's EditorToolCatalog. Our own tools
 * (`subagents_*`, for Copilot's agent) are left out: an agent here delegates with its own tools.
 * A call outside a chat request has no invocation token, so tools that need one refuse it; that
 * refusal reaches the model as the tool's error.
 */
export function lmToolCatalog(api: VscodeLmToolsApi, ownPrefix = 'subagents_'): EditorToolCatalog {
  return {
    tools: () =>
      api.lm.tools
        .filter((t) => !t.name.startsWith(ownPrefix))
        .map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema, tags: t.tags })),
    async invoke(name, input, signal) {
      const source = new api.CancellationTokenSource();
      const cancel = () => source.cancel();
      signal.addEventListener('abort', cancel, { once: true });
      try {
        if (signal.aborted) throw new Error('cancelled before it started');
        const result = await api.lm.invokeTool(name, { input, toolInvocationToken: undefined }, source.token);
        return result.content.map((part) => readPart(api, part));
      } finally {
        signal.removeEventListener('abort', cancel);
        source.dispose();
      }
    },
  };
}

function readPart(api: VscodeLmToolsApi, part: unknown): EditorToolPart {
  if (part instanceof api.LanguageModelTextPart) return { type: 'text', text: part.value };
  // LanguageModelDataPart is newer than the API this extension targets: read it by its shape.
  if (typeof part === 'object' && part !== null && 'mimeType' in part && 'data' in part && part.data instanceof Uint8Array) {
    return { type: 'data', mimeType: String(part.mimeType), bytes: part.data.byteLength };
  }
  return { type: 'other' };
}
