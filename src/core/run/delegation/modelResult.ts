import { formatStats } from '../../../shared/usage';
import { wrapUntrusted } from '../../access/untrusted/untrustedText';
import type { RunResult } from './runResult';

/** Past this many characters a child's output reaches its parent's model as a preview. */
export const MAX_OUTPUT_CHARS = 12_000;
const PREVIEW_CHARS = 4_000;

/**
 * A run result as a supervisor model sees it: the output as data between markers the child cannot
 * forge (see wrapUntrusted), long output cut to a preview plus a reference.
 */
export type ModelRunResult = RunResult & {
  outputTruncated?: { totalChars: number; threadId: string; runId: string; note: string };
  /** Said when tool calls failed, so the parent does not take "ok" for "all done". */
  toolFailures?: string;
};

export function resultForModel(result: RunResult): ModelRunResult {
  const long = result.output.length > MAX_OUTPUT_CHARS;
  const shown = long ? `${result.output.slice(0, PREVIEW_CHARS)}\n…` : result.output;
  const output = shown ? wrapUntrusted({ kind: 'subagent-output', author: `the subagent "${result.agent}"` }, shown) : '';
  const failures = result.failedToolCalls ? { toolFailures: toolFailuresText(result.failedToolCalls) } : {};
  if (!long) return { ...result, output, ...failures };
  return {
    ...result,
    ...failures,
    output,
    outputTruncated: {
      totalChars: result.output.length,
      threadId: result.threadId,
      runId: result.runId,
      note: `Only the first ${PREVIEW_CHARS} of ${result.output.length} characters are shown. The whole output is in the subagent's thread (the user can expand it in the panel); continue that thread with continueThreadId to ask about the rest.`,
    },
  };
}

function toolFailuresText(n: number): string {
  return `${n} of its tool calls failed (${n === 1 ? 'it' : 'they'} returned an error, for example an edit whose oldText was not found): its work may be incomplete whatever its output says. Check before relying on it or telling the user it is done.`;
}

/** The message that tells a parent a background child has ended (or was cut off). */
export function announcementText(result: RunResult): string {
  const r = resultForModel(result);
  const ended = r.status === 'interrupted' ? 'interrupted' : 'finished';
  const lines = [
    `[Background subagent ${ended}] ${r.agent} (runId ${r.runId}, threadId ${r.threadId})`,
    `status: ${r.status}${r.error ? ` — ${r.error}` : ''}`,
    `stats: ${formatStats(r.durationMs, r.usage)}`,
    ...(r.toolFailures ? [r.toolFailures] : []),
    'output:',
    r.output || '(none)',
  ];
  if (r.outputTruncated) lines.push(r.outputTruncated.note);
  return lines.join('\n');
}
