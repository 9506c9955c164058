import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import {
  client,
  ndJsonStream,
  PROTOCOL_VERSION,
  type ClientConnection,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
} from '@agentclientprotocol/sdk';

/** How the test's client answers a permission request (the option it picks, or a cancel); `signal` aborts when the agent withdraws it. */
export type PermissionAnswer = (
  request: RequestPermissionRequest,
  signal: AbortSignal,
) => RequestPermissionResponse | Promise<RequestPermissionResponse>;

/**
 * `subagents acp` as a real process (the CLI built from the current sources) driven by the SDK's
 * client side, as Zed would drive it: its HOME of its own and no API keys.
 */
export interface AcpServerUnderTest {
  connection: ClientConnection;
  process: ChildProcess;
  /** Every session/update received, in order. */
  updates: SessionNotification[];
  /** Every permission request received. */
  permissions: RequestPermissionRequest[];
  /** stdout as it came, to check that it is JSON-RPC only. */
  rawStdout(): string;
  stderr(): string;
  /** Resolves when an update matching `test` has arrived. */
  until(test: (n: SessionNotification) => boolean): Promise<SessionNotification>;
  /** Closes stdin (the client goes away) and resolves with the exit code. */
  end(): Promise<number | null>;
}

export async function startAcpServer(
  cli: string,
  cwd: string,
  args: string[],
  answer: PermissionAnswer = () => ({ outcome: { outcome: 'cancelled' } }),
): Promise<AcpServerUnderTest> {
  const env = { ...process.env, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', SUBAGENTS_API_KEY: '', HOME: join(cwd, '.home') };
  const child = spawn(process.execPath, [cli, 'acp', ...args], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let raw = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (raw += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const updates: SessionNotification[] = [];
  const permissions: RequestPermissionRequest[] = [];
  const waiters: { test: (n: SessionNotification) => boolean; resolve: (n: SessionNotification) => void }[] = [];
  const app = client({ name: 'test-client' })
    .onNotification('session/update', ({ params }) => {
      updates.push(params);
      for (const w of [...waiters]) {
        if (!w.test(params)) continue;
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(params);
      }
    })
    .onRequest('session/request_permission', ({ params, signal }) => {
      permissions.push(params);
      return answer(params, signal);
    });
  const connection = app.connect(
    ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>),
  );
  await connection.agent.request('initialize', {
    protocolVersion: PROTOCOL_VERSION,
    clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
    clientInfo: { name: 'test-client', version: '1' },
  });
  return {
    connection,
    process: child,
    updates,
    permissions,
    rawStdout: () => raw,
    stderr: () => err,
    until: (test) => {
      const seen = updates.find(test);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.push({ test, resolve }));
    },
    async end() {
      child.stdin.end();
      return exited;
    },
  };
}
