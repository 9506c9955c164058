/**
 * Context the user attached to a prompt (a workspace file, an editor selection). It travels inside
 * the prompt, after the user's text, in a block the model reads and the thread keeps; the panel
 * splits it off again to show chips instead of the text. Each item says how many characters it
 * holds, so splitting is exact whatever a file contains (even a line like `</attachment>`).
 */

export interface AttachedContext {
  kind: 'file' | 'selection';
  /** Workspace-relative, with forward slashes. */
  path: string;
  /** What a chip shows: `src/invoice.ts`, `src/invoice.ts:10-24`. */
  label: string;
  startLine?: number;
  endLine?: number;
  text: string;
}

export type AttachmentHeader = Omit<AttachedContext, 'text'>;

const OPEN = '\n\n<attachments>\n';
const CLOSE = '</attachments>';
const HEADER = /^<attachment kind="(file|selection)" path="([^"]*)"(?: lines="(\d+)-(\d+)")? chars="(\d+)">\n/;

const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
const unescape = (text: string): string =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

/** The prompt with its attachments after it; the prompt alone when there are none. */
export function withAttachedContext(prompt: string, items: readonly AttachedContext[]): string {
  if (items.length === 0) return prompt;
  const blocks = items.map((item) => {
    const lines = item.startLine !== undefined && item.endLine !== undefined ? ` lines="${item.startLine}-${item.endLine}"` : '';
    return `<attachment kind="${item.kind}" path="${escape(item.path)}"${lines} chars="${item.text.length}">\n${item.text}\n</attachment>\n`;
  });
  return `${prompt}${OPEN}${blocks.join('')}${CLOSE}`;
}

/** The user's text and what was attached to it; a prompt without a well-formed block is all text. */
export function splitAttachedContext(task: string): { prompt: string; attachments: AttachmentHeader[] } {
  const plain = { prompt: task, attachments: [] };
  const at = task.lastIndexOf(OPEN);
  if (at < 0 || !task.endsWith(CLOSE)) return plain;
  const attachments: AttachmentHeader[] = [];
  let rest = task.slice(at + OPEN.length, task.length - CLOSE.length);
  while (rest.length > 0) {
    const header = HEADER.exec(rest);
    if (!header) return plain;
    const [whole, kind, path, start, end, chars] = header;
    const after = whole.length + Number(chars);
    if (rest.slice(after, after + '\n</attachment>\n'.length) !== '\n</attachment>\n') return plain;
    const item: AttachmentHeader = { kind: kind as AttachmentHeader['kind'], path: unescape(path!), label: unescape(path!) };
    if (start && end) Object.assign(item, { label: `${item.path}:${start}-${end}`, startLine: Number(start), endLine: Number(end) });
    attachments.push(item);
    rest = rest.slice(after + '\n</attachment>\n'.length);
  }
  if (attachments.length === 0) return plain;
  return { prompt: task.slice(0, at), attachments };
}
