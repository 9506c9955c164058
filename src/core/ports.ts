import { setTimeout } from 'node:timers/promises';
import type { ApprovalDecision, ChangePreview } from '../shared/events';
import type { FileIdentity } from './platform/files/fileIdentity';

/**
 * What the core needs from a host. The extension implements these over the vscode API,
 * the CLI over node, and unit tests with small fakes.
 */

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface Clock {
  now(): number;
}

export interface Secrets {
  /** An API key by provider name ('openai', 'anthropic', 'openai-compatible'), or undefined. */
  get(name: string): Promise<string | undefined>;
}

/**
 * The reason a run is cancelled with when its window closes or reloads (or its process ends), so
 * what it was waiting for reads "cancelled (window reloaded)", not "stopped" or "denied".
 */
export class WindowClosing extends Error {
  override readonly name = 'WindowClosing';
  constructor() {
    super('the window closed or reloaded');
  }
}

export interface ApprovalRequest {
  approvalId: string;
  threadId: string;
  runId: string;
  /** The agent that asks, for a prompt that says who wants what. */
  agent: string;
  toolCallId: string;
  tool: string;
  input: unknown;
  reason: string;
  /** For an edit: its diff as the approval event carries it (first lines, counts). */
  preview?: ChangePreview;
  /** For an edit: the whole content before (null: a new file) and after, for the editor's diff; kept in memory only. */
  change?: { path: string; before: string | null; after: string };
}

export interface Approver {
  /** Resolves with the user's decision; a signal abort resolves it as denied. */
  request(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision>;
  /** False when no person can answer (the CLI without a terminal): a refusal is then the policy's, not a person's. */
  canAsk?(): boolean;
  /** How a user of this host lets commands that start with `prefix` run unasked; the setting when absent. */
  allowCommandHint?(prefix: string): string;
}

/** How to start a command: the program, its arguments and its whole environment. */
export interface CommandLaunch {
  file: string;
  args: string[];
  env: Record<string, string>;
  /** Windows: pass the arguments to cmd.exe as they are. */
  verbatim?: boolean;
}

/** A shell command line a tool runs in the workspace. */
export interface CommandRequest {
  /** As the agent wrote it: what the host shows. */
  command: string;
  /** What really starts: a shell, or the OS sandbox around one (src/core/access/sandbox/). */
  launch: CommandLaunch;
  /** Absolute; always the workspace root today. */
  cwd: string;
  /** Past this the whole process group is killed and the result says `timedOut`. */
  timeoutMs: number;
  /** Aborting kills the whole process group. */
  signal: AbortSignal;
  /** Output past this many characters is cut (head and tail kept); the result counts the cut. */
  maxOutputChars: number;
  /** Who runs it, for the host to show (e.g. a terminal's name). */
  label: string;
}

export interface CommandResult {
  /** null when the process was killed by a signal. */
  exitCode: number | null;
  /** stdout and stderr interleaved as they came, capped. */
  output: string;
  /** Characters cut from the middle of the output, 0 when it is whole. */
  cutChars: number;
  timedOut: boolean;
  cancelled: boolean;
}

/**
 * The folder every agent works in, and what tools do there that depends on the host: writes
 * (the editor routes them through its undo stack), commands (shown where the user sees them),
 * and the interactive and install actions. Paths are absolute and already checked by the core.
 */
export interface Workspace {
  /** Absolute path of the workspace folder every agent works in. */
  readonly root: string;
  /** False in an untrusted workspace: workspace profiles and write/exec tools are off. */
  readonly trusted: boolean;
  /**
   * A ripgrep binary this host can run (the editor's own, or `rg` on the PATH: ripgrep/locateRipgrep.ts);
   * without it find_files and search_text walk the workspace themselves, with the same results.
   */
  readonly ripgrep?: string;
  /** The text the user sees: an editor's unsaved buffer where there is one. Only regular files are read. */
  readFile(path: string): Promise<string>;
  /**
   * Replaces the file that was judged (`expected`: its identity), or creates it and its missing
   * parent folders (`expected` null: it must not exist yet). Rejects, writing nothing, when the path
   * no longer leads to that file inside the workspace, or the file is a hard link.
   */
  writeFile(path: string, content: string, expected: FileIdentity | null): Promise<void>;
  runCommand(request: CommandRequest): Promise<CommandResult>;
  /** Shows a file to the user, at a line (1-based) when given. */
  openFile(path: string, line?: number): Promise<void>;
  /** Asks the user a question; undefined when they dismiss it or the signal aborts. */
  askUser(question: string, signal: AbortSignal): Promise<string | undefined>;
  /** Installs an editor extension by id; rejects with a message a model can act on. */
  installExtension(id: string, signal: AbortSignal): Promise<void>;
}

/** Waits `ms`, or rejects with the signal's reason once it aborts. Injected where tests must not wait. */
export type Delay = (ms: number, signal?: AbortSignal) => Promise<void>;

/**
 * Calls `fn` once after `ms` milliseconds; the returned function cancels it. Injected where tests
 * must not wait (run timeouts, the stall warning, the model's idle timeout).
 */
export type Schedule = (ms: number, fn: () => void) => () => void;

export const systemClock: Clock = { now: () => Date.now() };

export const systemSchedule: Schedule = (ms, fn) => {
  const timer = globalThis.setTimeout(fn, ms);
  return () => globalThis.clearTimeout(timer);
};

export const systemDelay: Delay = (ms, signal) =>
  // Rejects with the signal's own reason (a cancel, a timeout), as a provider's fetch does.
  setTimeout(ms, undefined, { signal }).catch((error: unknown) => Promise.reject(signal?.reason ?? error));

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
