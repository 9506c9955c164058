import { Readable, Writable } from 'node:stream';
import {
  agent,
  ndJsonStream,
  PROTOCOL_VERSION,
  RequestError,
  type InitializeRequest,
  type InitializeResponse,
  type NewSessionRequest,
  type NewSessionResponse,
  type LoadSessionRequest,
  type LoadSessionResponse,
  type PromptRequest,
  type PromptResponse,
  type CancelNotification,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
  type AgentConnection,
} from '@agentclientprotocol/sdk';
import { refusalOf } from './acpRefusal';

/** What the server answers: the agent side of ACP, in our terms (acpAgent.ts). */
export interface AcpAgentHandlers {
  initialize(params: InitializeRequest): Promise<Omit<InitializeResponse, 'protocolVersion'>>;
  newSession(params: NewSessionRequest): Promise<NewSessionResponse>;
  loadSession(params: LoadSessionRequest): Promise<LoadSessionResponse>;
  prompt(params: PromptRequest): Promise<PromptResponse>;
  cancel(params: CancelNotification): void;
}

/** What the server may call on the client. */
export interface AcpClientCalls {
  update(notification: SessionNotification): Promise<void>;
  requestPermission(request: RequestPermissionRequest, signal: AbortSignal): Promise<RequestPermissionResponse>;
}

export interface AcpServing {
  /** Resolves when the client closes the connection (stdin ends) or it fails. */
  closed: Promise<void>;
  close(): void;
}

/**
 * The agent side of ACP over the official SDK, on this process's stdin and stdout (newline-
 * delimited JSON-RPC: nothing else may be written to stdout). Its own lazy bundle, `acpAgent.js`,
 * loaded only by `subagents acp`. A handler's AcpRefusal becomes a JSON-RPC error with its code.
 */
export function serveAcpOverStdio(
  handlers: (client: AcpClientCalls) => AcpAgentHandlers,
  streams: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream },
): AcpServing {
  // The handlers are made before the connection opens; they call the client only once it is open.
  const open: { connection?: AgentConnection } = {};
  const notConnected = () => new RequestError(-32603, 'The connection to the client is not open.');
  const made = handlers({
    update: (notification) =>
      open.connection ? open.connection.client.notify('session/update', notification) : Promise.reject(notConnected()),
    requestPermission: (request, signal) =>
      open.connection
        ? open.connection.client.request('session/request_permission', request, { cancellationSignal: signal })
        : Promise.reject(notConnected()),
  });
  const app = agent({ name: 'subagents' })
    .onRequest('initialize', async ({ params }) => ({ ...(await refusals(made.initialize(params))), protocolVersion: PROTOCOL_VERSION }))
    .onRequest('session/new', ({ params }) => refusals(made.newSession(params)))
    .onRequest('session/load', ({ params }) => refusals(made.loadSession(params)))
    .onRequest('session/prompt', ({ params }) => refusals(made.prompt(params)))
    .onNotification('session/cancel', ({ params }) => made.cancel(params));
  const stream = ndJsonStream(
    Writable.toWeb(streams.output as Writable) as WritableStream<Uint8Array>,
    Readable.toWeb(streams.input as Readable) as ReadableStream<Uint8Array>,
  );
  const connection = app.connect(stream);
  open.connection = connection;
  return { closed: connection.closed, close: () => connection.close() };
}

async function refusals<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    const refusal = refusalOf(error);
    if (refusal) throw new RequestError(refusal.code, refusal.message);
    throw error;
  }
}
