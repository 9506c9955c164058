import { EMPTY_TREE, foldRunEvents, type RunTree } from '../../../shared/runTree';
import { walkRuns } from '../../../shared/runTotals';
import { oneLine } from '../../../shared/oneLine';
import { toolCallParts, type SummaryPart } from '../../../shared/toolSummary';
import { runStats } from './runTreeText';
import { archiveText } from './threadArchive';
import type { LoadedFamily, ThreadMeta } from './threadStore';

export type ExportFormat = 'md' | 'json';

export interface ExportedThread {
  text: string;
  /** The file name's extension for this format, without the dot. */
  fileExtension: ExportFormat;
}

/**
 * A thread with its child threads as a document: Markdown to read or share, or JSON (the thread's
 * index entry, the entries of its child threads and every event of the family: threadArchive.ts,
 * which `threads import` reads back) to keep, move or feed to other tools. The one exporter of
 * `subagents threads export` and the extension's "Subagents: Export Thread".
 */
export function exportThread(family: LoadedFamily, format: ExportFormat, now: number): ExportedThread {
  if (format === 'json') return { text: archiveText(family.meta, family.threads, family.events), fileExtension: 'json' };
  return { text: renderMarkdown(family.meta, foldRunEvents(EMPTY_TREE, family.events), now), fileExtension: 'md' };
}

/** The thread as a Markdown document: each run as a section under its parent's. */
export function renderMarkdown(meta: ThreadMeta, tree: RunTree, now: number): string {
  const out: string[] = [
    `# ${meta.title || meta.id}`,
    '',
    `Thread \`${meta.id}\` · ${meta.agent} · started ${new Date(meta.createdAt).toISOString()}`,
  ];
  for (const run of walkRuns(tree)) {
    const level = '#'.repeat(Math.min(6, 2 + run.depth));
    out.push(
      '',
      `${level} ${run.agent}: ${oneLine(run.task, 80)}`,
      '',
      `**${run.state}** · ${runStats(tree, run, now)} · model \`${run.model}\``,
    );
    out.push('', '**Task**', '', ...run.task.split('\n').map((l) => `> ${l}`));
    if (run.toolCalls.length) {
      out.push('', '**Tool calls**', '');
      // Each call as the panel's row and Show Run Tree read it ("Read src/x.ts lines 1–40"), not its input as JSON.
      for (const call of run.toolCalls) out.push(`- ${summaryMarkdown(toolCallParts(call))}`);
    }
    if (run.error) out.push('', `**Error:** ${run.error}`);
    const answer = run.output ?? run.text;
    // Outputs are Markdown already: pasted as they are.
    if (answer) out.push('', '**Output**', '', answer);
  }
  return `${out.join('\n')}\n`;
}

/**
 * A tool call's summary as one line of Markdown. Its words come from agents (a path, a pattern, a
 * question, an error): the text's Markdown characters are escaped and code goes in a code span
 * that its own backticks cannot close, so no link, image, HTML or heading forms from them.
 */
function summaryMarkdown(parts: readonly SummaryPart[]): string {
  return parts.map((p) => (typeof p === 'string' ? markdownText(p) : 'code' in p ? codeSpan(p.code) : markdownText(p.file.path))).join('');
}

/** CommonMark lets a backslash escape any ASCII punctuation; these are the ones that start something inline. */
function markdownText(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/[\\`*_[\]<>&~|!#]/g, '\\$&');
}

/** A code span fenced by one backtick more than its longest run of them, padded when it starts or ends with one. */
function codeSpan(text: string): string {
  const code = oneLine(text, 400);
  if (!code) return '';
  const longest = Math.max(0, ...(code.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = code.startsWith('`') || code.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${code}${pad}${fence}`;
}
