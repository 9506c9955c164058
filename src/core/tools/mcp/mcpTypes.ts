/**
 * The shapes that pass between the engine and the MCP client bundle (dist/mcp.js), so the engine
 * imports only types from there and the SDK's weight stays out of engine.js until a run needs it.
 */

/** How to reach one server, with every variable expanded. */
export type McpLaunch =
  | { transport: 'stdio'; file: string; args: string[]; env: Record<string, string>; cwd: string }
  | { transport: 'http' | 'sse'; url: string; headers: Record<string, string> };

export interface ListedTool {
  name: string;
  title?: string;
  description?: string;
  /** The tool's input as JSON schema (an object schema), as the server lists it. */
  inputSchema: Record<string, unknown>;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; title?: string };
}

/** One item of a tool's result, as MCP defines them (text, image, audio, resource, resource_link). */
export interface ResultContent {
  type: string;
  text?: string;
  mimeType?: string;
  data?: string;
  uri?: string;
  name?: string;
  resource?: { uri?: string; mimeType?: string; text?: string; blob?: string };
}

export interface ToolCallResult {
  content: ResultContent[];
  isError?: boolean;
  structuredContent?: unknown;
}

export interface McpConnection {
  /** The tools the server listed when it started. */
  readonly tools: readonly ListedTool[];
  /** `http` when Streamable HTTP worked, `sse` when the server only speaks the older SSE transport. */
  readonly transport: 'stdio' | 'http' | 'sse';
  /** The stdio server's process id. */
  readonly pid: number | undefined;
  callTool(name: string, args: unknown, options: { signal: AbortSignal; timeoutMs: number }): Promise<ToolCallResult>;
  /** Ends the session and, for stdio, the process (stdin closed, then SIGTERM, then SIGKILL). */
  close(): Promise<void>;
  /** Called once when the connection ends by itself (the process exited, the server went away). Returns the unsubscribe. */
  onLost(listener: (why: string) => void): () => void;
}

export interface ConnectOptions {
  /** How long the server has to start and answer `initialize` and `tools/list`. */
  timeoutMs: number;
  /** Our name and version, sent in `initialize`. */
  client: { name: string; version: string };
}

/** The entry of dist/mcp.js. */
export type ConnectMcpServer = (launch: McpLaunch, options: ConnectOptions) => Promise<McpConnection>;
