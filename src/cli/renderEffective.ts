import type { RunConfig } from '../shared/events';
import type { RunNode, RunTree } from '../shared/runTree';
import { walkRuns } from '../shared/runTotals';

/** One run's effective configuration, as `threads show --effective --json` prints it. */
export interface EffectiveRun {
  runId: string;
  threadId: string;
  parentRunId: string | null;
  agent: string;
  depth: number;
  task: string;
  /** Absent for runs recorded before run.config existed. */
  config?: RunConfig;
}

export function effectiveRuns(tree: RunTree): EffectiveRun[] {
  return walkRuns(tree).map((r) => ({
    runId: r.runId,
    threadId: r.threadId,
    parentRunId: r.parentRunId,
    agent: r.agent,
    depth: r.depth,
    task: r.task,
    ...(r.config ? { config: r.config } : {}),
  }));
}

/**
 * Each run's configuration as it was given, for people: where the profile came from, the model and
 * how it was reached, the tools and why others are missing, the limits with their sources, and the
 * system prompt and task message as sent.
 */
export function renderEffective(tree: RunTree): string {
  return walkRuns(tree).map(runBlock).join('\n\n');
}

function runBlock(run: RunNode): string {
  const pad = '  '.repeat(run.depth);
  const head = `${pad}${run.agent} (run ${run.runId}, depth ${run.depth})`;
  const c = run.config;
  if (!c) return `${head}\n${pad}  (no configuration was recorded for this run: it was written by an older version)`;
  const lines = [head];
  const field = (name: string, value: string) => lines.push(`${pad}  ${name}: ${value}`);
  field('profile', c.profileSource + (c.profilePath ? ` (${c.profilePath})` : ''));
  const requested =
    c.model.requested === null ? 'none' : Array.isArray(c.model.requested) ? `[${c.model.requested.join(', ')}]` : c.model.requested;
  field('model', `${c.model.effective} (asked for: ${requested}; via ${c.model.via})`);
  field('tools', c.tools.effective.join(', ') || '(none)');
  if (c.tools.declared?.tools) lines.push(`${pad}    declared tools: ${c.tools.declared.tools.join(', ')}`);
  if (c.tools.declared?.disallowedTools) lines.push(`${pad}    declared disallowedTools: ${c.tools.declared.disallowedTools.join(', ')}`);
  for (const r of c.tools.removed) lines.push(`${pad}    not given ${r.tool}: ${r.reason}`);
  const limit = (name: string, l: { value: number; source: string } | undefined) =>
    l && lines.push(`${pad}  ${name}: ${l.value} (${l.source})`);
  limit('maxSteps', c.limits.maxSteps);
  limit('timeoutMs', c.limits.timeoutMs);
  limit('maxTokens', c.limits.maxTokens);
  if (c.projectInstructions?.length) field('project instructions', c.projectInstructions.join(', '));
  lines.push(`${pad}  system prompt:`, quoted(c.systemPrompt, pad), `${pad}  task message:`, quoted(c.taskMessage, pad));
  return lines.join('\n');
}

function quoted(text: string, pad: string): string {
  return text
    .split('\n')
    .map((l) => `${pad}    | ${l}`)
    .join('\n');
}
