import type { Usage } from './events';
import type { RunNode, RunTree } from './runTree';
import { ZERO_USAGE, addUsage } from './usage';

// What a run tree adds up to, read from the tree the reducer (runTree.ts) folded: totals, failures, the display order.

export interface RunTotals {
  usage: Usage;
  /** Wall time of the run itself: children run inside it, so their time is not added. */
  durationMs: number;
  runs: number;
  active: number;
}

/**
 * The run's tool calls that failed: errors the user did not choose (a denial or an approval no one
 * answered is not a failure of the work) and that the run's own end did not cut off.
 */
export function failedToolCalls(run: RunNode): number {
  let failed = 0;
  for (const call of run.toolCalls) {
    if (call.state !== 'error') continue;
    if (call.approval && call.approval.decision !== 'approved') continue;
    if (call.cutOff) continue;
    failed++;
  }
  return failed;
}

/** Tokens and run counts rolled up over a run and all its descendants. */
export function runTotals(tree: RunTree, runId: string, now: number = Date.now()): RunTotals {
  const root = tree.runs[runId];
  const totals: RunTotals = { usage: ZERO_USAGE, durationMs: 0, runs: 0, active: 0 };
  if (!root) return totals;
  totals.durationMs = root.durationMs ?? Math.max(0, now - root.startedAt);
  const stack = [runId];
  while (stack.length) {
    const n = tree.runs[stack.pop()!];
    if (!n) continue;
    totals.runs++;
    if (n.state === 'running') totals.active++;
    totals.usage = addUsage(totals.usage, n.usage);
    stack.push(...n.children);
  }
  return totals;
}

/** Runs of the tree in display order: each root, then its children depth first. */
export function walkRuns(tree: RunTree): RunNode[] {
  const out: RunNode[] = [];
  const visit = (id: string) => {
    const n = tree.runs[id];
    if (!n) return;
    out.push(n);
    for (const c of n.children) visit(c);
  };
  for (const r of tree.roots) visit(r);
  return out;
}
