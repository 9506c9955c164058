import type { ApprovalDecision, ChangePreview, RunConfig, RunStatus, Usage } from './events';

/**
 * The run tree's shape: a run, its tool calls, hook runs, file changes, messages and retries, as
 * the reducer (runTree.ts) folds them from RunEvents and the webview and the CLI read them.
 */

export type RunState = 'running' | RunStatus;

/** How an approval request ended: the user's answer, or `expired` when its run ended unanswered. */
export type ApprovalOutcome = ApprovalDecision | 'expired';

export interface ToolCallNode {
  toolCallId: string;
  tool: string;
  input: unknown;
  state: 'running' | 'done' | 'error';
  output?: unknown;
  approval?: {
    approvalId: string;
    reason?: string;
    /** For an edit: the diff it would make (first lines, counts). */
    preview?: ChangePreview;
    decision?: ApprovalOutcome;
    /** No one answered: the run was stopped, or its window closed or reloaded, first. */
    cancelled?: 'stopped' | 'reloaded';
  };
  /** When the call started and ended (epoch ms), for "Ran `npm test` · 2.3 s". */
  startedAt?: number;
  finishedAt?: number;
  /** Still running when its run ended: the run's end cut it off (not a failure of the call itself). */
  cutOff?: boolean;
}

export interface RunNode {
  runId: string;
  threadId: string;
  parentRunId: string | null;
  parentToolCallId?: string;
  agent: string;
  agentPath: string[];
  depth: number;
  task: string;
  model: string;
  /** How the model was reached when it is not the spec the profile names (alias, fallback, inherited). */
  modelVia?: string;
  state: RunState;
  /** The streamed answer so far; the final output once finished. */
  text: string;
  output?: string;
  /** What it thought on the way (run.reasoning), shown folded; absent until it says any. */
  reasoning?: string;
  error?: string;
  bailed?: boolean;
  usage: Usage;
  durationMs?: number;
  startedAt: number;
  finishedAt?: number;
  toolCalls: ToolCallNode[];
  children: string[];
  warnings: string[];
  /** Set while the run waits to retry a failed model call; gone once the model answers or the run ends. */
  retrying?: RetryState;
  /** What the run was configured with when it started (run.config): the "Why this config?" inspector. */
  config?: RunConfig;
  /** Messages it was sent while it worked (steers), in order. */
  messages: RunMessage[];
  /** Its open model call has been silent past subagents.stallWarningMs; gone with its next event. */
  stalled?: boolean;
  /** The files this run changed ("N files changed (+a −b)"); absent until it changes one. */
  changes?: RunChanges;
  /** The hooks that ran on this run, in order; absent until one runs (and in threads from before hooks). */
  hooks?: HookRunNode[];
  /** Its changes the user reverted (run.reverted), over every revert; absent until one. */
  reverted?: RunRevert;
}

/** What reverts of a run's changes did: `files` are now as before the run. */
export interface RunRevert {
  /** Every file reverted so far, in the order reverted. */
  files: string[];
  /** When the last revert was. */
  ts: number;
}

/** One hook run (hook.ran). */
export interface HookRunNode {
  event: string;
  command: string;
  source: string;
  exitCode: number | null;
  durationMs: number;
  decision: string;
  note?: string;
  toolCallId?: string;
}

/** One file a run changed, over all its changes to it: from the first before to the last after. */
export interface FileChangeNode {
  path: string;
  beforeHash: string | null;
  afterHash: string | null;
  added: number;
  removed: number;
  /** `overlap` when any of the run's changes to it may have been another command's. */
  attribution: 'exact' | 'overlap';
}

export interface RunChanges {
  /** In the order first changed. */
  files: FileChangeNode[];
  added: number;
  removed: number;
}

export interface RunMessage {
  from: 'user' | 'parent';
  text: string;
  ts: number;
  /** How many tool calls the run had made when it arrived: its place in the run's timeline. */
  afterToolCalls: number;
}

export interface RetryState {
  attempt: number;
  maxRetries: number;
  error: string;
  delayMs: number;
  /** When the next try starts (epoch ms). */
  retryAt: number;
}

export interface RunTree {
  runs: Readonly<Record<string, RunNode>>;
  /** Top-level runs (no parent in this tree), in start order. */
  roots: readonly string[];
  /** Highest seq folded per thread: an event at or below it was seen already and is skipped. */
  lastSeq: Readonly<Record<string, number>>;
  /** Number of events folded; lets views skip work when nothing changed. */
  version: number;
}
