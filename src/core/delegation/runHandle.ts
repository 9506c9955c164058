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
  usage: Usage;
  durationMs: number;
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
  controller: AbortController;
  done: Promise<RunResult>;
}
