import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import {
  createConnection,
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver/node';
import { startAgentServer } from '../../../src/server/agentServer';
import type { AgentServerOptions } from '../../../src/server/agentWorkspace';

/**
 * The agent-file server and a client speaking LSP to it over in-memory streams: the real
 * protocol (JSON-RPC framing included), in this process.
 */
export async function startServer(root: string, options: AgentServerOptions = {}) {
  const up = new PassThrough();
  const down = new PassThrough();
  startAgentServer(createConnection(up, down));
  const client = createProtocolConnection(new StreamMessageReader(down), new StreamMessageWriter(up));
  const latest = new Map<string, PublishDiagnosticsParams>();
  const waiters: { uri: string; test: (p: PublishDiagnosticsParams) => boolean; resolve: (p: PublishDiagnosticsParams) => void }[] = [];
  client.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => {
    latest.set(params.uri, params);
    for (const w of [...waiters]) {
      if (w.uri === params.uri && w.test(params)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(params);
      }
    }
  });
  client.listen();
  const rootUri = pathToFileURL(root).href;
  await client.sendRequest('initialize', {
    processId: null,
    rootUri,
    workspaceFolders: [{ uri: rootUri, name: 'ws' }],
    capabilities: {},
    initializationOptions: options,
  });
  client.sendNotification('initialized', {});
  let version = 1;
  return {
    client,
    uri: (path: string) => pathToFileURL(path).href,
    /** The next diagnostics for `uri` that pass `test` (or the latest, if they already do). */
    diagnostics(uri: string, test: (p: PublishDiagnosticsParams) => boolean = () => true): Promise<PublishDiagnosticsParams> {
      const now = latest.get(uri);
      if (now && test(now)) return Promise.resolve(now);
      return new Promise((resolve) => waiters.push({ uri, test, resolve }));
    },
    nextDiagnostics(uri: string): Promise<PublishDiagnosticsParams> {
      return new Promise((resolve) => waiters.push({ uri, test: () => true, resolve }));
    },
    open(uri: string, text: string) {
      client.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'markdown', version: ++version, text } });
    },
    change(uri: string, text: string) {
      client.sendNotification('textDocument/didChange', { textDocument: { uri, version: ++version }, contentChanges: [{ text }] });
    },
    /** Stops listening. The streams stay open: the server library ends the process when its input ends. */
    dispose() {
      client.dispose();
    },
  };
}
