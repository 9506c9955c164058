import type { ApprovalDecision } from '../shared/events';

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

export interface ApprovalRequest {
  approvalId: string;
  runId: string;
  toolCallId: string;
  tool: string;
  input: unknown;
  reason: string;
}

export interface Approver {
  /** Resolves with the user's decision; a signal abort resolves it as denied. */
  request(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision>;
}

export interface Workspace {
  /** Absolute path of the workspace folder every agent works in. */
  readonly root: string;
  /** False in an untrusted workspace: workspace profiles and write/exec tools are off. */
  readonly trusted: boolean;
}

export const systemClock: Clock = { now: () => Date.now() };

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
