import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ConnectMcpServer, ConnectOptions, ListedTool, McpConnection, McpLaunch, ToolCallResult } from './mcpTypes';

/**
 * The MCP client over the official SDK: a lazily loaded bundle of its own (dist/mcp.js, see
 * scripts/bundles.mjs), so only a run that needs a server loads it. One connection is one
 * initialized session with its tool list; the hub (mcpHub.ts) decides when to start and stop them.
 */

/** What a stdio server wrote to stderr, last part kept: it says why a server did not start. */
const STDERR_KEEP = 2000;
/** Tool lists longer than this many pages are a server in a loop. */
const MAX_PAGES = 20;

export const connectMcpServer: ConnectMcpServer = async (launch, options) => {
  if (launch.transport === 'stdio') return connectStdio(launch, options);
  if (launch.transport === 'sse')
    return connect(new SSEClientTransport(new URL(launch.url), { requestInit: { headers: launch.headers } }), 'sse', options);
  try {
    return await connect(
      new StreamableHTTPClientTransport(new URL(launch.url), { requestInit: { headers: launch.headers } }),
      'http',
      options,
    );
  } catch (error) {
    // A server that only speaks the older SSE transport refuses the Streamable HTTP POST with a 4xx.
    if (
      !(error instanceof StreamableHTTPError) ||
      error.code === undefined ||
      error.code < 400 ||
      error.code >= 500 ||
      error.code === 401 ||
      error.code === 403
    )
      throw error;
    return connect(new SSEClientTransport(new URL(launch.url), { requestInit: { headers: launch.headers } }), 'sse', options);
  }
};

async function connectStdio(launch: Extract<McpLaunch, { transport: 'stdio' }>, options: ConnectOptions): Promise<McpConnection> {
  const transport = new StdioClientTransport({ command: launch.file, args: launch.args, env: launch.env, cwd: launch.cwd, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-STDERR_KEEP);
  });
  try {
    return await connect(transport, 'stdio', options, () => stderr);
  } catch (error) {
    const said = stderr.trim().split('\n').slice(-5).join('\n');
    // The SDK's "Connection closed" means the process ended before it answered.
    const what = /Connection closed/i.test(message(error)) ? 'the server process exited before it answered' : message(error);
    throw new Error(`${what}${said ? `; it wrote: ${said}` : ''}`, { cause: error });
  }
}

async function connect(
  transport: Transport,
  kind: McpConnection['transport'],
  options: ConnectOptions,
  stderr?: () => string,
): Promise<McpConnection> {
  const client = new Client(options.client, { capabilities: {} });
  let closing = false;
  const lost = new Set<(why: string) => void>();
  let lostWhy: string | undefined;
  client.onclose = () => {
    if (closing) return;
    const said = stderr?.().trim().split('\n').slice(-3).join(' ');
    lostWhy = `the connection ended${kind === 'stdio' ? ' (the server process exited)' : ''}${said ? `; it wrote: ${said}` : ''}`;
    for (const listener of lost) listener(lostWhy);
  };
  const started = AbortSignal.timeout(options.timeoutMs);
  try {
    await client.connect(transport, { timeout: options.timeoutMs, signal: started });
    const tools = await listTools(client, options.timeoutMs, started);
    return {
      tools,
      transport: kind,
      pid: transport instanceof StdioClientTransport ? (transport.pid ?? undefined) : undefined,
      async callTool(name, args, { signal, timeoutMs }) {
        const result = await client.callTool({ name, arguments: (args ?? {}) as Record<string, unknown> }, undefined, {
          signal,
          timeout: timeoutMs,
          resetTimeoutOnProgress: true,
        });
        return result as ToolCallResult;
      },
      async close() {
        closing = true;
        await client.close();
      },
      onLost(listener) {
        lost.add(listener);
        if (lostWhy !== undefined) listener(lostWhy);
        return () => lost.delete(listener);
      },
    };
  } catch (error) {
    closing = true;
    await client.close().catch(() => {});
    if (started.aborted)
      throw new Error(`it did not answer within ${options.timeoutMs} ms (set MCP_TIMEOUT in milliseconds to wait longer)`, {
        cause: error,
      });
    throw error;
  }
}

async function listTools(client: Client, timeoutMs: number, signal: AbortSignal): Promise<ListedTool[]> {
  if (!client.getServerCapabilities()?.tools) return [];
  const tools: ListedTool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const listed = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout: timeoutMs, signal });
    tools.push(...(listed.tools as ListedTool[]));
    cursor = listed.nextCursor;
    if (!cursor) break;
  }
  return tools;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
