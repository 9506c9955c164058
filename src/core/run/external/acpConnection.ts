import type { ChildProcess } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import {
  client,
  MessageTooLargeError,
  ndJsonStream,
  PROTOCOL_VERSION,
  RequestError,
  type ClientConnection,
} from '@agentclientprotocol/sdk';
import { childProcess } from '../../platform/processes/childProcess';
import { ACP_RECIPES } from '../../config/agentFiles/acpRecipes';
import { signalProcessGroup } from '../../platform/processes/spawner';
import {
  AcpStartError,
  type AuthMethod,
  type AcpAgentSession,
  type AcpClientHandlers,
  type AcpLaunch,
  type AcpSessionVia,
} from './acpTypes';

/**
 * The client side of ACP over the official SDK (its own lazy bundle, `acp.js`: nothing of it loads
 * until a run of an ACP profile starts). One process per call (kept for the child thread's next run by
 * acpSessions.ts), in a process group of its own so a stop ends whatever it started too; `initialize` offers fs read and write and no terminal (its
 * commands run as the agent runs them, outside our sandbox, and are asked about through
 * `session/request_permission`).
 */
export async function startAcpAgent(launch: AcpLaunch, handlers: AcpClientHandlers): Promise<AcpAgentSession> {
  const child = childProcess().spawn(launch.command, [...launch.args], {
    cwd: launch.processCwd ?? launch.cwd,
    env: { ...launch.env },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: process.platform !== 'win32',
    windowsHide: true,
  });
  const stderr = new StderrTail();
  child.stderr?.on('data', (chunk: Buffer) => stderr.add(chunk.toString('utf8')));
  const exited = exitOf(child);
  const spawned = await new Promise<Error | undefined>((resolve) => {
    child.once('spawn', () => resolve(undefined));
    child.once('error', resolve);
  });
  if (spawned) throw new AcpStartError(`Could not start "${launch.command}": ${spawned.message}`);
  const close = (graceMs = 1500) => endProcess(child, exited, graceMs);
  // A stop while it starts (the run's timeout, the Stop button) ends it at once.
  const onAbort = () => void close(200);
  launch.signal?.addEventListener('abort', onAbort, { once: true });

  const app = client({ name: 'subagents' })
    .onNotification('session/update', ({ params }) => handlers.update(params.update))
    .onRequest('session/request_permission', ({ params, signal }) => handlers.requestPermission(params, signal))
    .onRequest('fs/read_text_file', ({ params, signal }) => handlers.readTextFile(params, signal).catch(asRequestError))
    .onRequest('fs/write_text_file', ({ params, signal }) => handlers.writeTextFile(params, signal).catch(asRequestError));
  const stream = ndJsonStream(
    Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>,
    { maxMessageBytes: launch.maxMessageBytes },
  );
  const connection: ClientConnection = app.connect(stream);
  // The process ending fails whatever waits on it (a prompt, initialize), with its stderr's last lines.
  const gone = exited.then((exit) => {
    const error = new AcpStartError(`The agent process ended (${exit})${stderr.said()}`);
    connection.close(error);
    return error;
  });

  let sessionId: string;
  let agentName = launch.command;
  let authMethods: readonly AuthMethod[] = [];
  let loadSession = false;
  let via: AcpSessionVia = 'new';
  let loadRefused: string | undefined;
  try {
    const started = await withTimeout(
      (async () => {
        const init = await connection.agent.request('initialize', {
          protocolVersion: PROTOCOL_VERSION,
          clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false },
          clientInfo: { name: 'subagents', version: '1' },
        });
        if (init.agentInfo?.name) agentName = init.agentInfo.name;
        authMethods = init.authMethods ?? [];
        loadSession = init.agentCapabilities?.loadSession === true;
        try {
          // A thread's earlier session, where the agent offers session/load (it replays the session's
          // updates first: the caller's handlers are not yet bound, so they are not shown again).
          if (launch.resume !== undefined && loadSession) {
            const resumed = launch.resume;
            try {
              await connection.agent.request('session/load', { sessionId: resumed, cwd: launch.cwd, mcpServers: [] });
              via = 'loaded';
              return { sessionId: resumed };
            } catch (error) {
              if (error instanceof RequestError && error.code === -32000) throw error;
              loadRefused = `${agentName} could not load session ${resumed} (${error instanceof Error ? error.message : String(error)})`;
            }
          }
          return await connection.agent.request('session/new', { cwd: launch.cwd, mcpServers: [] });
        } catch (error) {
          // -32000: authentication required. The agent says how to log in (authMethods); we never wait on a login.
          if (error instanceof RequestError && error.code === -32000) throw loginNeeded(agentName, authMethods, launch);
          throw error;
        }
      })(),
      gone,
      launch.startTimeoutMs,
      () =>
        new AcpStartError(
          `"${launch.command}" did not answer ACP's initialize and session/new within ${launch.startTimeoutMs} ms, so it was stopped. Check that the command speaks ACP on stdio (e.g. "gemini --acp").${stderr.said()}`,
        ),
    );
    sessionId = started.sessionId;
  } catch (error) {
    launch.signal?.removeEventListener('abort', onAbort);
    await close(200);
    if (launch.signal?.aborted) throw launch.signal.reason;
    if (error instanceof AcpStartError) throw error;
    throw new AcpStartError(
      `${agentName} could not start a session: ${error instanceof Error ? error.message : String(error)}${stderr.said()}`,
    );
  }

  launch.signal?.removeEventListener('abort', onAbort);
  return {
    sessionId,
    agentName,
    loadSession,
    via,
    ...(loadRefused === undefined ? {} : { loadRefused }),
    running: () => child.exitCode === null && child.signalCode === null,
    pid: child.pid,
    async prompt(text) {
      const answer = connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
      try {
        return (await Promise.race([answer, gone.then((error) => Promise.reject(error))])).stopReason;
      } catch (error) {
        // Some agents ask for a login only when a prompt reaches their provider (OpenCode's auth_required).
        if (error instanceof RequestError && error.code === -32000) throw loginNeeded(agentName, authMethods, launch);
        const tooLarge = [error, (error as { cause?: unknown } | undefined)?.cause, connection.signal.reason].find(
          (e) => e instanceof MessageTooLargeError,
        );
        if (tooLarge)
          throw new AcpStartError(
            `${agentName} sent one message larger than ${Math.round(launch.maxMessageBytes / 1024 / 1024)} MB, the most accepted, so it was stopped.`,
          );
        // Its stdout closing comes a moment before its exit: the exit (with its stderr) says more.
        throw (await Promise.race([gone, delay(1000)])) ?? error;
      }
    },
    async cancel() {
      await connection.agent.notify('session/cancel', { sessionId }).catch(() => {});
    },
    close,
    stderrTail: () => stderr.text(),
  };
}

/**
 * -32000 (authentication required): the agent says how to log in (authMethods); we never wait on a
 * login. The command to run is a recipe's (acpRecipes.ts) for a known agent, else the one an auth
 * method's description names in backticks ("Run `opencode auth login` in the terminal").
 */
function loginNeeded(agentName: string, methods: readonly AuthMethod[], launch: AcpLaunch): AcpStartError {
  const recipe = ACP_RECIPES.find((r) => r.acp.command === launch.command && r.acp.args.every((a) => launch.args.includes(a)));
  const named = methods.map((m) => /`([^`\n]{1,200})`/.exec(m.description ?? '')?.[1]).find((c) => c !== undefined);
  const login = recipe?.login ?? named;
  if (login) return new AcpStartError(`${agentName} needs a login: run \`${login}\` in a terminal, then try again.`);
  const ways = methods.map((m) => `${m.name}${m.description ? ` (${m.description})` : ''}`);
  return new AcpStartError(
    `${agentName} needs a login${ways.length ? ` (${ways.join('; ')})` : ''}: log in with the agent's own command in a terminal, then try again.`,
  );
}

/** A handler's refusal as a JSON-RPC error the agent reads (its message says what was wrong). */
function asRequestError(error: unknown): never {
  if (error instanceof RequestError) throw error;
  throw new RequestError(-32603, error instanceof Error ? error.message : String(error));
}

function delay(ms: number): Promise<undefined> {
  return new Promise((resolve) => setTimeout(() => resolve(undefined), ms).unref());
}

function withTimeout<T>(work: Promise<T>, gone: Promise<Error>, ms: number, late: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(late()), ms)));
  return Promise.race([work, timeout, gone.then((e) => Promise.reject(e))]).finally(() => clearTimeout(timer));
}

function exitOf(child: ChildProcess): Promise<string> {
  return new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ? `killed by ${signal}` : `exit code ${code ?? 'unknown'}`)),
  );
}

async function endProcess(child: ChildProcess, exited: Promise<string>, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const pid = child.pid;
  child.stdin?.end();
  signalProcessGroup(pid, 'SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const forced = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      signalProcessGroup(pid, 'SIGKILL');
      resolve();
    }, graceMs);
  });
  await Promise.race([exited, forced]);
  clearTimeout(timer);
  // Whatever the agent started in its group goes with it (SIGKILL is harmless when the group is gone).
  signalProcessGroup(pid, 'SIGKILL');
  await exited;
}

/** The last few KB of what the agent wrote to stderr. */
class StderrTail {
  private tail = '';
  add(text: string): void {
    this.tail = (this.tail + text).slice(-4000);
  }
  text(): string {
    return this.tail.split('\n').filter(Boolean).slice(-10).join('\n');
  }
  said(): string {
    const last = this.text();
    return last ? `. Its stderr ended with:\n${last}` : '';
  }
}
