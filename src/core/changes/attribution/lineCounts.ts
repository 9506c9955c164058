import { diffLines } from 'diff';

/** Past this many edits the exact line diff is not worth its time: every line counts as changed. */
const MAX_EDIT_LENGTH = 5000;

/** Lines added and removed from `before` to `after`, as `git diff --numstat` counts them; 0 and 0 for binary content. */
export function lineCounts(before: Uint8Array | null, after: Uint8Array | null): { added: number; removed: number } {
  if ((before && isBinary(before)) || (after && isBinary(after))) return { added: 0, removed: 0 };
  const a = before ? Buffer.from(before).toString('utf8') : '';
  const b = after ? Buffer.from(after).toString('utf8') : '';
  if (a === b) return { added: 0, removed: 0 };
  const changes = diffLines(whole(a), whole(b), { maxEditLength: MAX_EDIT_LENGTH });
  if (!changes) return { added: lineTotal(b), removed: lineTotal(a) };
  let added = 0;
  let removed = 0;
  for (const c of changes) {
    if (c.added) added += c.count;
    else if (c.removed) removed += c.count;
  }
  return { added, removed };
}

/** A NUL in the first 8 KB: binary, as git decides. */
function isBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8192).includes(0);
}

/** The same last line with and without a newline after it is one line to a reader. */
function whole(text: string): string {
  return text === '' || text.endsWith('\n') ? text : `${text}\n`;
}

function lineTotal(text: string): number {
  if (text === '') return 0;
  return whole(text).split('\n').length - 1;
}
