import { oneLine } from './oneLine';
import { retryText } from './retryText';
import type { RunNode, RunTree } from './runTree';
import { DELEGATION_TOOLS, toolActivity, waitsForChildren } from './toolSummary';

/**
 * What a run is doing now, for its one live line in the panel: "reading src/invoice.ts", "needs
 * your approval: editing src/money.ts", "waiting for researcher", "writing: Totals are…"; once it
 * ended, the first line of its answer or its error.
 */
export function runActivity(tree: RunTree, node: RunNode): string {
  if (node.state !== 'running') {
    if (node.error) return oneLine(node.error, 160);
    return oneLine(plain(firstLine(node.output ?? node.text)), 160);
  }
  if (node.retrying) return retryText(node.retrying);
  const waiting = node.toolCalls.find((c) => c.approval !== undefined && c.approval.decision === undefined);
  if (waiting) return `needs your approval: ${toolActivity(waiting)}`;
  for (let i = node.toolCalls.length - 1; i >= 0; i--) {
    const call = node.toolCalls[i]!;
    if (call.state !== 'running') continue;
    if (DELEGATION_TOOLS.has(call.tool) || waitsForChildren(call)) {
      const running = node.children.map((id) => tree.runs[id]).filter((c) => c?.state === 'running');
      if (running.length) return `waiting for ${[...new Set(running.map((c) => c!.agent))].join(', ')}`;
    }
    return toolActivity(call);
  }
  if (node.text.trim()) return `writing: ${oneLine(plain(lastLine(node.text)), 120)}`;
  return node.toolCalls.length ? 'thinking' : 'starting';
}

function firstLine(text: string): string {
  return text.split('\n').find((l) => l.trim() !== '') ?? '';
}

function lastLine(text: string): string {
  const lines = text.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) if (lines[i]!.trim() !== '') return lines[i]!;
  return '';
}

/** A markdown line as it reads: no heading or list marker, no emphasis or code marks. */
function plain(line: string): string {
  return line.replace(/^\s*(?:#{1,6}|[-*+]|\d+[.)]|>)\s+/, '').replace(/\*\*|__|`/g, '');
}
