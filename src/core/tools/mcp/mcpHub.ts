import { homedir } from 'node:os';
import { errorText } from '../../../shared/errorText';
import { killTokenHolders } from '../../access/sandbox/tokenSweep';
import { silentLogger, systemClock, type Clock, type Logger } from '../../ports';
import type { LauncherSettings } from '../../access/sandbox/commandLauncher';
import { mentionsSandboxSetupFailure } from '../../access/sandbox/sandboxSetupFailure';
import type { McpDeclarations, McpServerDecl } from '../../config/mcp/mcpDeclarations';
import { prepareMcpLaunch, type PreparedLaunch } from './mcpLaunch';
import { mcpApprovalKey, mcpServerKey } from '../../config/mcp/mcpServerKey';
import type { ConnectMcpServer, McpConnection, ToolCallResult } from './mcpTypes';
import { environmentFor, withheldKeysProblem } from '../../config/mcp/withheldKeys';

/** Remembers which workspace-declared servers the user approved (the extension: per workspace). */
export interface McpApprovalMemory {
  isApproved(key: string): boolean;
  remember(key: string): void;
}

export interface McpHubOptions {
  root: string;
  /** Folders a sandboxed server may not write wherever they lie: the thread storage (the sandbox policy's `readOnly`). */
  readOnly?: readonly string[];
  /** What is declared now; read at the start of every run, like settings. */
  declarations: () => McpDeclarations;
  memory?: McpApprovalMemory;
  /** Declarations approved up front, by mcpApprovalKey (the CLI's --allow-mcp NAME, bound to what NAME was when it started). */
  allowedKeys?: readonly string[];
  env?: Readonly<Record<string, string | undefined>>;
  home?: string;
  /** Default: MCP_TIMEOUT (Claude Code's variable), else 30 s. */
  startTimeoutMs?: number;
  /** Default: MCP_TOOL_TIMEOUT, else 10 minutes (a progress notification starts it again). */
  toolTimeoutMs?: number;
  /** The SDK client; default: the lazily loaded bundle. */
  connect?: () => Promise<ConnectMcpServer>;
  clock?: Clock;
  logger?: Logger;
  version?: string;
}

/** A server that started: its connection, and the run-independent way to call it. */
export interface LiveServer {
  decl: McpServerDecl;
  connection: McpConnection;
}

interface ServerState {
  decl: McpServerDecl;
  starting?: Promise<McpConnection>;
  connection?: McpConnection;
  prepared?: PreparedLaunch;
  crashes: number;
  /** Why it is not started again (it crashed twice, or the hub stopped). */
  failure?: string;
  /** A failed start, and when: the next runs are told at once for a while rather than waiting again. */
  startFailure?: { message: string; at: number };
}

/** A server that failed to start is tried again by a run after this long, not before. */
const RETRY_START_AFTER_MS = 30_000;

const envNumber = (value: string | undefined): number | undefined =>
  value && /^\d+$/.test(value) && Number(value) > 0 ? Number(value) : undefined;

/**
 * The MCP servers of one window or CLI process: each starts on the first run that needs it and is
 * shared by the runs after it; one that crashes is restarted once, on its next use; `stopAll`
 * ends every one (the window closing, the CLI exiting), and with it every process it left.
 */
export class McpHub {
  private readonly states = new Map<string, ServerState>();
  /** Approvals and denials of this process, by key: one question per server per window. */
  private readonly decided = new Map<string, Promise<boolean>>();
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly env: Readonly<Record<string, string | undefined>>;
  readonly startTimeoutMs: number;
  readonly toolTimeoutMs: number;
  private stopped = false;
  private readonly reported = new Set<string>();

  constructor(private readonly options: McpHubOptions) {
    this.env = options.env ?? process.env;
    this.clock = options.clock ?? systemClock;
    this.logger = options.logger ?? silentLogger;
    this.startTimeoutMs = options.startTimeoutMs ?? envNumber(this.env.MCP_TIMEOUT) ?? 30_000;
    this.toolTimeoutMs = options.toolTimeoutMs ?? envNumber(this.env.MCP_TOOL_TIMEOUT) ?? 600_000;
  }

  declarations(): McpDeclarations {
    return this.options.declarations();
  }

  /** Declaration problems not yet reported by this hub: each is said once, on the run that meets it. */
  unreported(messages: readonly string[]): string[] {
    const fresh = messages.filter((m) => !this.reported.has(m));
    for (const m of fresh) this.reported.add(m);
    return fresh;
  }

  /** Whether this server may start without asking: the user's own, or this very declaration approved before or by --allow-mcp. */
  preApproved(decl: McpServerDecl): boolean {
    if (decl.origin === 'user') return true;
    const key = mcpApprovalKey(decl);
    if (this.options.allowedKeys?.includes(key)) return true;
    return this.options.memory?.isApproved(key) ?? false;
  }

  /**
   * The user's answer for a workspace server, asked at most once per process for the same
   * declaration (concurrent runs share the question); an approval is remembered for the workspace.
   * `ask` resolves undefined when no one answered.
   */
  approval(decl: McpServerDecl, ask: () => Promise<boolean | undefined>): Promise<boolean> {
    const key = mcpApprovalKey(decl);
    let decided = this.decided.get(key);
    if (!decided) {
      decided = ask().then((approved) => {
        if (approved) this.options.memory?.remember(key);
        // No answer (the run that asked was stopped): the next run asks again.
        if (approved === undefined) this.decided.delete(key);
        return approved === true;
      });
      this.decided.set(key, decided);
    }
    return decided;
  }

  /** The running server, started (or restarted once after a crash) if need be; rejects with why it cannot. */
  async server(decl: McpServerDecl, settings: LauncherSettings, warn: (message: string) => void): Promise<LiveServer> {
    const state = this.stateOf(decl);
    const connection = await this.ensure(state, settings, warn);
    return { decl, connection };
  }

  /** Calls a tool of a started server; a server that crashed since is restarted once first. */
  async call(live: LiveServer, tool: string, args: unknown, signal: AbortSignal, settings: LauncherSettings): Promise<ToolCallResult> {
    const state = this.stateOf(live.decl);
    const connection = await this.ensure(state, settings, (m) => this.logger.warn(m));
    let lostWhy: string | undefined;
    const off = connection.onLost((why) => (lostWhy = why));
    try {
      return await connection.callTool(tool, args, { signal, timeoutMs: this.toolTimeoutMs });
    } catch (error) {
      if (signal.aborted) throw error;
      if (lostWhy !== undefined || state.connection !== connection) {
        const next = state.failure ? 'it is not restarted again' : 'it will be restarted once for the next call';
        throw new Error(`the MCP server "${live.decl.name}" stopped during the call (${lostWhy ?? 'its connection ended'}); ${next}`, {
          cause: error,
        });
      }
      throw error;
    } finally {
      off();
    }
  }

  /**
   * Stops every server and whatever their processes left; the hub starts none after this. A server
   * gets `graceMs` to end its session and exit (its stdin closed); then it and everything carrying
   * its token are killed, so a window closing within VS Code's few seconds leaves nothing behind.
   */
  async stopAll(graceMs = 1500): Promise<void> {
    this.stopped = true;
    const states = [...this.states.values()];
    await Promise.all(states.map((s) => this.stop(s, 'the window or the CLI process is stopping', graceMs)));
  }

  /**
   * Launches are prepared one after another: the sandbox lays its placeholders for missing
   * protected paths per command, and two laid at once can trip over each other.
   */
  private launches: Promise<unknown> = Promise.resolve();
  private oneAtATime<T>(prepare: () => Promise<T>): Promise<T> {
    const next = this.launches.then(prepare, prepare);
    this.launches = next.catch(() => undefined);
    return next;
  }

  private stateOf(decl: McpServerDecl): ServerState {
    const id = `${decl.profile ?? ''}\0${decl.name}\0${mcpServerKey(decl.config)}`;
    let state = this.states.get(id);
    if (!state) this.states.set(id, (state = { decl, crashes: 0 }));
    return state;
  }

  private async ensure(state: ServerState, settings: LauncherSettings, warn: (message: string) => void): Promise<McpConnection> {
    if (this.stopped) throw new Error('MCP servers are stopping with the window or the CLI process');
    if (state.connection) return state.connection;
    if (state.failure) throw new Error(state.failure);
    if (state.startFailure && this.clock.now() - state.startFailure.at < RETRY_START_AFTER_MS) throw new Error(state.startFailure.message);
    state.starting ??= this.start(state, settings, warn).finally(() => (state.starting = undefined));
    return state.starting;
  }

  private async start(state: ServerState, settings: LauncherSettings, warn: (message: string) => void): Promise<McpConnection> {
    try {
      return await this.startOnce(state, settings, warn);
    } catch (error) {
      // The sandbox did not set up (see sandboxSetupFailure.ts): the server never ran, so one
      // more try is safe; anything else is said at once.
      if (!mentionsSandboxSetupFailure(errorText(error)) || this.stopped) throw error;
      this.logger.warn(`MCP server "${state.decl.name}": the sandbox did not set up (${errorText(error)}); trying once more.`);
      return this.startOnce(state, settings, warn);
    }
  }

  private async startOnce(state: ServerState, settings: LauncherSettings, warn: (message: string) => void): Promise<McpConnection> {
    const { decl } = state;
    const began = this.clock.now();
    let prepared: PreparedLaunch | undefined;
    try {
      const withheld = withheldKeysProblem(decl);
      if (withheld) throw new Error(withheld);
      const connect = await (this.options.connect ?? loadClient)();
      // A workspace's server expands its variables, and inherits, from an environment without our keys.
      const env = environmentFor(decl, this.env);
      prepared = await this.oneAtATime(() =>
        prepareMcpLaunch(decl, {
          root: this.options.root,
          readOnly: this.options.readOnly ?? [],
          home: this.options.home ?? homedir(),
          env,
          settings,
          warn,
        }),
      );
      const connection = await connect(prepared.launch, {
        timeoutMs: this.startTimeoutMs,
        client: { name: 'subagents', version: this.options.version ?? '0.1.0' },
      });
      if (this.stopped) {
        await connection.close().catch(() => {});
        sweep(prepared);
        throw new Error('MCP servers are stopping with the window or the CLI process');
      }
      state.connection = connection;
      state.prepared = prepared;
      state.startFailure = undefined;
      connection.onLost((why) => this.lost(state, connection, why));
      const via =
        connection.transport === 'stdio'
          ? prepared.sandboxed
            ? 'stdio, in the OS sandbox'
            : 'stdio'
          : connection.transport === 'sse'
            ? 'SSE'
            : 'Streamable HTTP';
      this.logger.info(
        `MCP server "${decl.name}" (${decl.source}) started in ${this.clock.now() - began} ms over ${via}, with ${connection.tools.length} tool(s).`,
      );
      return connection;
    } catch (error) {
      if (prepared) sweep(prepared);
      // A sandboxed server's failure names the sandbox and the setting that changes it (mcpLaunch.ts).
      const message = prepared ? prepared.explainFailure(errorText(error)) : errorText(error);
      state.startFailure = { message, at: this.clock.now() };
      throw error instanceof Error && message === error.message ? error : new Error(message, { cause: error });
    }
  }

  /** The server went away by itself: the next use restarts it, once. */
  private lost(state: ServerState, connection: McpConnection, why: string): void {
    if (state.connection !== connection) return;
    state.connection = undefined;
    if (state.prepared) sweep(state.prepared);
    state.prepared = undefined;
    state.crashes++;
    if (state.crashes >= 2)
      state.failure = `the MCP server "${state.decl.name}" stopped twice (${why}), so it is not started again in this window or process`;
    this.logger.warn(
      `MCP server "${state.decl.name}" stopped: ${why}.${state.failure ? ' It is not restarted again.' : ' It is restarted once, on its next use.'}`,
    );
  }

  private async stop(state: ServerState, why: string, graceMs: number): Promise<void> {
    state.failure = why;
    const starting = state.starting?.catch(() => undefined);
    const connection = state.connection ?? (await starting);
    state.connection = undefined;
    if (connection) {
      const closed = connection
        .close()
        .catch((error: unknown) => this.logger.warn(`MCP server "${state.decl.name}" did not close cleanly: ${errorText(error)}`));
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([closed, new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
    }
    if (state.prepared) sweep(state.prepared);
    state.prepared = undefined;
  }
}

/** What a stdio server left behind (its own children, a sandbox's helpers) is ended by its token. */
function sweep(prepared: PreparedLaunch): void {
  if (prepared.token) killTokenHolders(prepared.token, 'SIGKILL');
  prepared.release();
}

async function loadClient(): Promise<ConnectMcpServer> {
  const client = await import('./mcpConnection');
  return client.connectMcpServer;
}
