import type { RunStatus, Usage } from '../../shared/events';

/** What a finished run hands back to whoever started it (and, as JSON, to a supervisor model). */
export interface RunResult {
  agent: string;
  runId: string;
  threadId: string;
  status: RunStatus;
  output: string;
  error?: string;
  bailed?: boolean;
  /** This run's own tokens. */
  usage: Usage;
  /** Its tokens plus those of every run under it. */
  totalUsage?: Usage;
  durationMs: number;
}

/** A run started by another run: what the parent knows of it. */
export interface ChildRecord {
  handle: RunHandle;
  /** Started with subagent_start: its result is announced to the parent when it ends. */
  background: boolean;
  result?: RunResult;
  /** The parent's model has seen the result (returned by a tool, or announced): never again. */
  delivered: boolean;
  /** A subagent_await is waiting for it, and will return the result itself. */
  awaited: number;
}

/** A background child's report waiting for its parent's model. */
export interface Announcement {
  /** child thread + run id: one announcement per finished run, whatever happens. */
  key: string;
  text: string;
}

/** A run the engine started and has not forgotten: its place in the tree and its controls. */
export interface RunHandle {
  runId: string;
  threadId: string;
  /** The thread the user talks in; every run of one request shares it. */
  rootThreadId: string;
  agent: string;
  agentPath: readonly string[];
  depth: number;
  /** The model spec this run uses; children without a model of their own inherit it. */
  modelSpec: string;
  parent: RunHandle | null;
  /** The parent's tool call that started this run: a replayed call finds the run by it. */
  parentToolCallId?: string;
  controller: AbortController;
  done: Promise<RunResult>;
  /** Runs this run started, by run id: subagent_status, _await and _cancel reach only these. */
  children: Map<string, ChildRecord>;
  /** Reports of background children that this run's model has not seen yet. */
  mailbox: Announcement[];
  /** Keys of every announcement ever made to this run (exactly once). */
  announced: Set<string>;
  /** Set when a returnDirectly subagent's answer ends this run's turn, verbatim. */
  bail?: { agent: string; output: string };
  /** The last few things the run did, newest last (for subagent_status). */
  progress: string[];
}
