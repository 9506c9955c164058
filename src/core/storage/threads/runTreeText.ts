import { changesLeft, fileChangeText, runChangesText } from '../../../shared/changeSummary';
import type { RunNode, RunTree } from '../../../shared/runTree';
import { runTotals, walkRuns } from '../../../shared/runTotals';
import { toolCallText } from '../../../shared/toolSummary';
import { formatStats, formatUsage } from '../../../shared/usage';
import { oneLine } from '../../../shared/oneLine';

/** The run's own time, tokens and cost; with subagents under it, also those of its whole subtree. */
export function runStats(tree: RunTree, run: RunNode, now: number): string {
  const own = formatStats(run.durationMs ?? Math.max(0, now - run.startedAt), run.usage, true);
  if (run.children.length === 0) return own;
  const total = runTotals(tree, run.runId, now);
  return `${own}; with ${total.runs - 1} subagent run${total.runs === 2 ? '' : 's'}: ${formatUsage(total.usage, true)}`;
}

/**
 * The run tree as text: each run under its parent with agent, status, stats and its tool calls.
 * `revertUnavailable`: why the runs' changes can no longer be reverted (the size cap took the
 * thread's snapshots), said under each run that has changes.
 */
export function renderRunTree(tree: RunTree, now: number, revertUnavailable?: string): string {
  const lines: string[] = [];
  for (const run of walkRuns(tree)) {
    const pad = '  '.repeat(run.depth);
    lines.push(`${pad}${run.agent} [${run.state}] ${oneLine(run.task, 80)}  (${runStats(tree, run, now)})`);
    // Each call as the panel's row reads it (shared/toolSummary.ts), not its input as JSON.
    for (const call of run.toolCalls) lines.push(`${pad}  - ${toolCallText(call)}`);
    if (run.changes) lines.push(`${pad}  ${runChangesText(run)} (run ${run.runId}): ${run.changes.files.map(fileChangeText).join(', ')}`);
    if (run.changes && revertUnavailable && changesLeft(run).length > 0) lines.push(`${pad}  revert unavailable: ${revertUnavailable}`);
    if (run.error) lines.push(`${pad}  error: ${oneLine(run.error, 200)}`);
    for (const w of run.warnings) lines.push(`${pad}  warning: ${oneLine(w, 200)}`);
    if (run.state !== 'running' && run.output) lines.push(`${pad}  => ${oneLine(run.output, 120)}`);
  }
  return lines.join('\n');
}
