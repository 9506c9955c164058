import { diffLines } from 'diff';

/**
 * An edit_file call as a line diff: what its oldText became. jsdiff finds the lines the two
 * share (shown as context) and the ones removed and added, so "+3 −1" counts lines, not blocks.
 */

export interface DiffLine {
  kind: 'add' | 'del' | 'same';
  text: string;
}

export interface EditDiff {
  lines: DiffLine[];
  added: number;
  removed: number;
  /** Lines left out past MAX_LINES (a huge edit still shows its start). */
  omitted: number;
}

const MAX_LINES = 400;

export function editDiff(oldText: string, newText: string): EditDiff {
  const out: EditDiff = { lines: [], added: 0, removed: 0, omitted: 0 };
  // The same last line with and without a newline after it is the same line to a reader.
  const whole = (text: string): string => (text === '' || text.endsWith('\n') ? text : `${text}\n`);
  for (const change of diffLines(whole(oldText), whole(newText))) {
    const kind = change.added ? 'add' : change.removed ? 'del' : 'same';
    const lines = change.value.replace(/\n$/, '').split('\n');
    if (kind === 'add') out.added += lines.length;
    if (kind === 'del') out.removed += lines.length;
    for (const text of lines) {
      if (out.lines.length < MAX_LINES) out.lines.push({ kind, text });
      else out.omitted++;
    }
  }
  return out;
}
