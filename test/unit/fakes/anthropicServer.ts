import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP server on 127.0.0.1 that speaks Anthropic's Messages API (streaming), for tests of
 * what reaches Anthropic and what it reports: it records each request's body and answers with the
 * next reply of a list, with the usage a prompt cache reports (`cache_read_input_tokens`,
 * `cache_creation_input_tokens`). Its `baseURL` ends in /v1, as ANTHROPIC_BASE_URL does.
 */

export interface AnthropicUsage {
  /** Input tokens the cache neither served nor took (Anthropic's `input_tokens`). */
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

export type AnthropicReply =
  | { text: string; usage: AnthropicUsage }
  | { toolUse: { id: string; name: string; input: object }; usage: AnthropicUsage }
  | { status: number; message: string };

/** A request body as sent, with the parts the cache tests read. */
export interface AnthropicRequest {
  model?: string;
  system?: { type: string; text: string; cache_control?: unknown }[];
  tools?: { name: string; cache_control?: unknown }[];
  messages?: { role: string; content: { type: string; cache_control?: unknown }[] }[];
  cache_control?: unknown;
}

export interface AnthropicServer {
  baseURL: string;
  requests: AnthropicRequest[];
  close(): Promise<void>;
}

export async function startAnthropicServer(
  replies: (AnthropicReply | ((request: AnthropicRequest) => AnthropicReply))[],
): Promise<AnthropicServer> {
  const requests: AnthropicRequest[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const body = (raw ? JSON.parse(raw) : {}) as AnthropicRequest;
      requests.push(body);
      const next = replies[requests.length - 1];
      const reply = typeof next === 'function' ? next(body) : (next ?? { status: 500, message: 'the test server has no reply left' });
      if ('status' in reply) {
        res.writeHead(reply.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: reply.message } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const event of events(reply)) res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function events(reply: Exclude<AnthropicReply, { status: number }>): ({ type: string } & Record<string, unknown>)[] {
  const { usage } = reply;
  const start = {
    type: 'message_start',
    message: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: usage.input,
        output_tokens: 1,
        cache_read_input_tokens: usage.cacheRead ?? 0,
        cache_creation_input_tokens: usage.cacheWrite ?? 0,
      },
    },
  };
  const block =
    'text' in reply
      ? [
          { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
          { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: reply.text } },
        ]
      : [
          {
            type: 'content_block_start',
            index: 0,
            content_block: { type: 'tool_use', id: reply.toolUse.id, name: reply.toolUse.name, input: {} },
          },
          { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(reply.toolUse.input) } },
        ];
  return [
    start,
    ...block,
    { type: 'content_block_stop', index: 0 },
    {
      type: 'message_delta',
      delta: { stop_reason: 'text' in reply ? 'end_turn' : 'tool_use', stop_sequence: null },
      usage: { output_tokens: usage.output },
    },
    { type: 'message_stop' },
  ];
}

/** Where a request carries `cache_control`: "tool:NAME", "system", "message:I:ROLE" (I counts from 0), "top". */
export function cacheMarks(request: AnthropicRequest): string[] {
  const marks: string[] = [];
  if (request.cache_control) marks.push('top');
  for (const tool of request.tools ?? []) if (tool.cache_control) marks.push(`tool:${tool.name}`);
  for (const block of request.system ?? []) if (block.cache_control) marks.push('system');
  (request.messages ?? []).forEach((message, i) => {
    for (const part of Array.isArray(message.content) ? message.content : [])
      if (part.cache_control) marks.push(`message:${i}:${message.role}`);
  });
  return marks;
}
