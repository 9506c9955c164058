import type {
  AuthMethod,
  ReadTextFileRequest,
  ReadTextFileResponse,
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionUpdate,
  StopReason,
  WriteTextFileRequest,
  WriteTextFileResponse,
} from '@agentclientprotocol/sdk';

export type { AuthMethod, ReadTextFileRequest, RequestPermissionRequest, RequestPermissionResponse, SessionUpdate, WriteTextFileRequest };

/** How to start one external agent: the profile's `acp`, with the environment already decided (acpEnvironment.ts). */
export interface AcpLaunch {
  command: string;
  args: readonly string[];
  env: Readonly<Record<string, string>>;
  /** The run's workspace (its worktree for `isolation: worktree`): the session's cwd, and the process's unless `processCwd`. */
  cwd: string;
  /** Where the process starts when not in `cwd`: a package runner's own folder (access/commands/packageRunner.ts). */
  processCwd?: string;
  /** How long `initialize` and `session/new` may take before the agent is given up as not answering. */
  startTimeoutMs: number;
  /** The largest one JSON message the agent may send; a larger one ends the connection. */
  maxMessageBytes: number;
  /** Aborting it while the agent starts ends the process. */
  signal?: AbortSignal;
  /** A session of the thread's earlier run to `session/load`, where the agent offers it (else a new session). */
  resume?: string;
}

/** How the session came to be: a new one, or the thread's earlier one loaded (`session/load`) or kept alive. */
export type AcpSessionVia = 'new' | 'loaded' | 'kept';

/** What the client side answers the agent with: the run's own file layer and approval gate (runExternal.ts). */
export interface AcpClientHandlers {
  update(update: SessionUpdate): void;
  requestPermission(request: RequestPermissionRequest, signal: AbortSignal): Promise<RequestPermissionResponse>;
  readTextFile(request: ReadTextFileRequest, signal: AbortSignal): Promise<ReadTextFileResponse>;
  writeTextFile(request: WriteTextFileRequest, signal: AbortSignal): Promise<WriteTextFileResponse>;
}

/** A started agent with its session: what the run drives. */
export interface AcpAgentSession {
  readonly sessionId: string;
  readonly agentName: string;
  /** The agent offered `session/load` in its initialize answer. */
  readonly loadSession: boolean;
  /** A new session, or the one asked for in `resume` loaded. */
  readonly via: Exclude<AcpSessionVia, 'kept'>;
  /** Why the session asked for in `resume` was not loaded though the agent offers session/load (a sentence). */
  readonly loadRefused?: string;
  /** The process id (for tests that check no process outlives its thread). */
  readonly pid: number | undefined;
  /** The process has not ended. */
  running(): boolean;
  /** Sends one prompt and resolves with why the agent stopped; rejects when the process ends first. */
  prompt(text: string): Promise<StopReason>;
  /** `session/cancel`: the agent should stop its turn and answer the prompt `cancelled`. */
  cancel(): Promise<void>;
  /** Ends the process (its whole process group): SIGTERM, then SIGKILL after `graceMs`. Resolves once it is gone. */
  close(graceMs?: number): Promise<void>;
  /** The last lines the agent wrote to stderr (for an error that says why it failed). */
  stderrTail(): string;
}

/** Raised when the agent cannot be used: it does not start, answer, or asks for a login. The message is for people. */
export class AcpStartError extends Error {}
