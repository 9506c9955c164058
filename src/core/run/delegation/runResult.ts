import type { RunStatus, Usage } from '../../../shared/events';
import { ZERO_USAGE } from '../../../shared/usage';

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
  /** Its tool calls that failed (an edit whose oldText was not found): a run "ok" with these may not have done all it says. */
  failedToolCalls?: number;
}

/** The result for a child that never ran (refused, busy): an error in its own slot. */
export function failedResult(agent: string, threadId: string, error: string): RunResult {
  return { agent, runId: '', threadId, status: 'error', output: '', error, usage: ZERO_USAGE, durationMs: 0 };
}
