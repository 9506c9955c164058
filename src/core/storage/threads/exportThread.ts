import { EMPTY_TREE, foldRunEvents, type RunTree } from '../../../shared/runTree';
import { walkRuns } from '../../../shared/runTotals';
import { oneLine } from '../../../shared/oneLine';
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
      for (const call of run.toolCalls) out.push(`- \`${call.tool}\` \`${oneLine(call.input, 120).replace(/`/g, "'")}\` → ${call.state}`);
    }
    if (run.error) out.push('', `**Error:** ${run.error}`);
    const answer = run.output ?? run.text;
    // Outputs are Markdown already: pasted as they are.
    if (answer) out.push('', '**Output**', '', answer);
  }
  return `${out.join('\n')}\n`;
}
