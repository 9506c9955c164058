/**
 * The editor's own tools (in VS Code: `vscode.lm.tools`, which other extensions register and
 * which hold the MCP servers the user configured in VS Code itself), as the engine sees them. The
 * host implements this port over the editor's API (src/host/workspace/editorTools/); the CLI has none.
 */
export interface EditorToolCatalog {
  /** The tools the editor offers now (read at the start of each run). */
  tools(): readonly EditorToolInfo[];
  /** Calls one; rejects when the tool fails, the editor refuses the call, or `signal` aborts it. */
  invoke(name: string, input: object, signal: AbortSignal): Promise<EditorToolPart[]>;
}

export interface EditorToolInfo {
  name: string;
  description: string;
  /** The tool's JSON schema for its input, when it declares one. */
  inputSchema?: object | undefined;
  tags: readonly string[];
}

/** A part of a result: text as text, anything else only described (the model gets no binary data). */
export type EditorToolPart = { type: 'text'; text: string } | { type: 'data'; mimeType: string; bytes: number } | { type: 'other' };
