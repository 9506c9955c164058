import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP server on 127.0.0.1 that speaks the OpenAI chat-completions streaming protocol, for
 * tests of everything between our code and a provider: each request gets the next reply of a list.
 */

export interface RecordedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: { model?: string; messages?: { role: string; content: unknown }[]; stream?: boolean } & Record<string, unknown>;
  raw: string;
}

export type Reply =
  /** An HTTP error with an OpenAI-style error body. */
  | { status: number; message: string; headers?: Record<string, string> }
  /** A 200 event stream: the chunks, then `data: [DONE]`. */
  | { chunks: object[] }
  /** A 200 event stream that sends these chunks and then breaks the connection. */
  | { chunks: object[]; destroy: true }
  /** A 200 event stream that sends these chunks and then says nothing more, until the client goes away. */
  | { chunks: object[]; hold: true };

export interface ChatServer {
  baseURL: string;
  requests: RecordedRequest[];
  /** Replies used in order; when they run out, the server answers 500. */
  replies: (Reply | ((request: RecordedRequest) => Reply | Promise<Reply>))[];
  close(): Promise<void>;
}

export async function startChatServer(replies: ChatServer['replies'] = []): Promise<ChatServer> {
  const requests: RecordedRequest[] = [];
  const state = { replies };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const request: RecordedRequest = {
        path: req.url ?? '',
        headers: req.headers,
        body: raw ? (JSON.parse(raw) as RecordedRequest['body']) : {},
        raw,
      };
      requests.push(request);
      const next = state.replies[requests.length - 1];
      const reply = typeof next === 'function' ? next(request) : (next ?? { status: 500, message: 'the test server has no reply left' });
      // A reply may wait for something else to happen first (another run's request, say).
      void Promise.resolve(reply).then((r) => send(res, r));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    get replies() {
      return state.replies;
    },
    set replies(value) {
      state.replies = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(res: ServerResponse, reply: Reply): void {
  if ('status' in reply) {
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    res.end(JSON.stringify({ error: { message: reply.message, type: 'test_error', code: null } }));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  if ('hold' in reply) {
    res.write(reply.chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join(''));
    return;
  }
  if ('destroy' in reply) {
    // Break the connection only once what was sent has left, so the client sees it first.
    res.write(reply.chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join(''), () => res.socket?.destroy());
    return;
  }
  for (const chunk of reply.chunks) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
  res.end('data: [DONE]\n\n');
}

const frame = (choices: object[], extra: object = {}) => ({
  id: 'c1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices,
  ...extra,
});

/** A streamed text answer in the given pieces, with usage. */
export function textReply(pieces: string[], usage = { prompt_tokens: 10, completion_tokens: 5 }): Reply {
  return {
    chunks: [
      ...pieces.map((content, i) =>
        frame([{ index: 0, delta: i === 0 ? { role: 'assistant', content } : { content }, finish_reason: null }]),
      ),
      frame([{ index: 0, delta: {}, finish_reason: 'stop' }]),
      frame([], { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } }),
    ],
  };
}

/** One tool call whose JSON arguments arrive in the given pieces, with usage. */
export function toolCallReply(
  id: string,
  name: string,
  argumentPieces: string[],
  usage = { prompt_tokens: 10, completion_tokens: 5 },
): Reply {
  return {
    chunks: [
      frame([
        {
          index: 0,
          delta: { role: 'assistant', content: null, tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: '' } }] },
          finish_reason: null,
        },
      ]),
      ...argumentPieces.map((args) =>
        frame([{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: args } }] }, finish_reason: null }]),
      ),
      frame([{ index: 0, delta: {}, finish_reason: 'tool_calls' }]),
      frame([], { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } }),
    ],
  };
}

/** Text that streams in the given pieces and then stops short: no finish, the stream stays open. */
export function heldTextReply(pieces: string[]): Reply {
  return {
    chunks: pieces.map((content, i) =>
      frame([{ index: 0, delta: i === 0 ? { role: 'assistant', content } : { content }, finish_reason: null }]),
    ),
    hold: true,
  };
}
