import { structuredPatch } from 'diff';
import type { ChangePreview, ChangePreviewLine } from '../../../shared/events';
import { secretFileReason } from '../../access/secrets/secretFiles';
import { lineCounts } from '../attribution/lineCounts';

/** Lines the approval box may carry: enough to judge a typical edit, small enough for every thread file. */
export const MAX_PREVIEW_LINES = 60;
/** A longer line is cut: a minified file must not fill a thread with one line. */
const MAX_LINE_CHARS = 300;
/** Past this many edits the exact diff is not worth the wait before asking: counts only, and "open diff". */
const MAX_EDIT_LENGTH = 5000;
const CONTEXT_LINES = 3;

/**
 * What an edit would change, for the approval that asks about it: the first hunks of the line diff
 * (three lines of context, as git shows it) with the lines added and removed. Content that must
 * not be written into a thread is not carried: a file that may hold secrets, binary content.
 * Known secret values in the lines are redacted by the run's emitter, as every event is.
 */
export function changePreview(path: string, before: string | null, after: string): ChangePreview {
  const base = { path, ...(before === null ? { created: true } : {}) };
  const secret = secretFileReason(path);
  if (secret)
    return {
      ...base,
      ...counts(before, after),
      lines: [],
      omitted: 0,
      hidden: `its content is not shown here: it may hold secrets (${secret})`,
    };
  if ((before !== null && before.includes('\0')) || after.includes('\0'))
    return { ...base, added: 0, removed: 0, lines: [], omitted: 0, hidden: 'binary content' };
  const patch = structuredPatch(path, path, whole(before ?? ''), whole(after), undefined, undefined, {
    context: CONTEXT_LINES,
    maxEditLength: MAX_EDIT_LENGTH,
  });
  if (!patch) return { ...base, ...counts(before, after), lines: [], omitted: 0, hidden: 'too many changes to show here' };
  const lines: ChangePreviewLine[] = [];
  let added = 0;
  let removed = 0;
  let omitted = 0;
  const push = (line: ChangePreviewLine) => {
    if (lines.length < MAX_PREVIEW_LINES) lines.push(line);
    else omitted++;
  };
  for (const hunk of patch.hunks) {
    // A new file is one hunk from its first line: no header to read.
    if (before !== null) push({ kind: 'hunk', text: `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@` });
    for (const raw of hunk.lines) {
      const sign = raw[0];
      if (sign === '\\') continue; // "\ No newline at end of file": whole() leaves none
      const text = clip(raw.slice(1));
      if (sign === '+') {
        added++;
        push({ kind: 'add', text });
      } else if (sign === '-') {
        removed++;
        push({ kind: 'del', text });
      } else push({ kind: 'same', text });
    }
  }
  return { ...base, added, removed, lines, omitted };
}

/** The counts alone, as a run's changed files count them, when no lines are shown. */
function counts(before: string | null, after: string): { added: number; removed: number } {
  return lineCounts(before === null ? null : Buffer.from(before), Buffer.from(after));
}

/** The same last line with and without a newline after it is one line to a reader. */
function whole(text: string): string {
  return text === '' || text.endsWith('\n') ? text : `${text}\n`;
}

function clip(text: string): string {
  return text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS - 1)}…` : text;
}
