import type { RunTree } from '../../src/shared/runTree';
import { formatDuration } from '../../src/shared/usage';
import { runStateLabel } from './stateIcons';

/**
 * The runs a batch ended, and what a screen reader should hear about them: "The answer is ready
 * (4.2 s).", "researcher done.", "reviewer failed: The model returned 401.".
 */
export function runEndNews(prev: RunTree, next: RunTree, changed: readonly string[]): { ended: string[]; text: string[] } {
  const ended: string[] = [];
  const text: string[] = [];
  for (const id of changed) {
    const before = prev.runs[id];
    const node = next.runs[id];
    if (!node || node.state === 'running' || (before && before.state !== 'running')) continue;
    ended.push(id);
    const time = node.durationMs === undefined ? '' : ` (${formatDuration(node.durationMs)})`;
    const why = node.error ? `: ${node.error}` : '';
    if (node.parentRunId === null)
      text.push(node.state === 'ok' ? `The answer is ready${time}.` : sentence(`The answer ${runStateLabel(node.state)}${time}${why}`));
    else text.push(sentence(`${node.agent} ${runStateLabel(node.state)}${why}`));
  }
  return { ended, text };
}

function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
