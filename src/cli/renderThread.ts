import type { ThreadMeta } from '../core/threads/threadStore';
import type { RunNode, RunTree, ToolCallNode } from '../shared/runTree';
import { runTotals, walkRuns } from '../shared/runTree';
import { formatStats } from '../shared/usage';
import { oneLine } from '../shared/oneLine';

/** Input or output as one short line. */

/** The run's own time and tokens; with subagents under it, also the tokens of its whole subtree. */
function stats(tree: RunTree, run: RunNode, now: number): string {
  const own = formatStats(run.durationMs ?? Math.max(0, now - run.startedAt), run.usage);
  if (run.children.length === 0) return own;
  const total = runTotals(tree, run.runId, now);
  return `${own}; with ${total.runs - 1} subagent run${total.runs === 2 ? '' : 's'}: ${total.usage.inputTokens} in / ${total.usage.outputTokens} out`;
}

function toolLine(call: ToolCallNode): string {
  const approval = call.approval?.decision ? ` (${call.approval.decision})` : call.approval ? ' (awaiting approval)' : '';
  return `${call.tool} ${oneLine(call.input, 80)} -> ${call.state}${approval}`;
}

/** The run tree as text: each run under its parent with agent, status, stats and its tool calls. */
export function renderRunTree(tree: RunTree, now: number): string {
  const lines: string[] = [];
  for (const run of walkRuns(tree)) {
    const pad = '  '.repeat(run.depth);
    lines.push(`${pad}${run.agent} [${run.state}] ${oneLine(run.task, 80)}  (${stats(tree, run, now)})`);
    for (const call of run.toolCalls) lines.push(`${pad}  - ${toolLine(call)}`);
    if (run.error) lines.push(`${pad}  error: ${oneLine(run.error, 200)}`);
    for (const w of run.warnings) lines.push(`${pad}  warning: ${oneLine(w, 200)}`);
    if (run.state !== 'running' && run.output) lines.push(`${pad}  => ${oneLine(run.output, 120)}`);
  }
  return lines.join('\n');
}

/** The thread as a Markdown document: each run as a section under its parent's. */
export function renderMarkdown(meta: ThreadMeta, tree: RunTree, now: number): string {
  const out: string[] = [`# ${meta.title || meta.id}`, '', `Thread \`${meta.id}\` · ${meta.agent} · started ${new Date(meta.createdAt).toISOString()}`];
  for (const run of walkRuns(tree)) {
    const level = '#'.repeat(Math.min(6, 2 + run.depth));
    out.push('', `${level} ${run.agent}: ${oneLine(run.task, 80)}`, '', `**${run.state}** · ${stats(tree, run, now)} · model \`${run.model}\``);
    out.push('', '**Task**', '', ...run.task.split('\n').map((l) => `> ${l}`));
    if (run.toolCalls.length) {
      out.push('', '**Tool calls**', '');
      for (const call of run.toolCalls) out.push(`- \`${call.tool}\` \`${oneLine(call.input, 120).replace(/`/g, "'")}\` → ${call.state}`);
    }
    if (run.error) out.push('', `**Error:** ${run.error}`);
    const answer = run.output ?? run.text;
    // Outputs are Markdown already: pasted as they are.
    if (answer) out.push('', '**Output**', '', answer);
  }
  return `${out.join('\n')}\n`;
}
