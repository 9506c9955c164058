import { z } from 'zod';
import { lazySchema } from '../../../shared/lazySchema';
import { defineTool, type AnyToolSpec, type ToolCallContext } from '../toolSpec';
import { hardLinkReason } from '../../platform/files/writeInside';
import { resolveWorkspacePath } from '../../access/paths/workspacePath';
import { oneFileAtATime } from '../../platform/files/oneFileAtATime';
import { withoutLineNumbers, withoutShownNumbers } from './lineNumbers';
import { looksBinary, type WorkspaceToolDeps } from './toolDeps';
import { errorText } from '../../../shared/errorText';

const inputSchema = lazySchema(() =>
  z.object({
    path: z.string().describe('Relative to the workspace root.'),
    oldText: z.string().describe("Exact text, whitespace included, without read_file's line numbers."),
    newText: z.string().describe('Its replacement.'),
  }),
);

type Located = { ok: true; start: number; oldText: string; newText: string } | { ok: false; error: string; missing?: true };

/**
 * Finds the one place `oldText` occurs; a file with CRLF line ends also matches LF-written text.
 * Text that is not in the file but carries read_file's line numbers on every line is looked for
 * without them (lineNumbers.ts); text that is in the file as written is always taken as written.
 */
function locate(content: string, oldText: string, newText: string, rel: string): Located {
  if (oldText.length === 0) return { ok: false, error: 'oldText is empty. To create or replace a whole file use write_file.' };
  const found = locateAsWritten(content, oldText, newText, rel);
  if (found.ok || !found.missing) return found;
  const unnumbered = withoutLineNumbers(oldText);
  if (unnumbered === undefined || unnumbered.length === 0) return found;
  const again = locateAsWritten(content, unnumbered, withoutShownNumbers(newText), rel);
  return again.ok || !again.missing ? again : found;
}

function locateAsWritten(content: string, oldText: string, newText: string, rel: string): Located {
  let count = occurrences(content, oldText);
  if (count === 0 && content.includes('\r\n') && !oldText.includes('\r\n')) {
    const crlf = (s: string) => s.replace(/\r?\n/g, '\r\n');
    if (occurrences(content, crlf(oldText)) > 0) {
      oldText = crlf(oldText);
      newText = crlf(newText);
      count = occurrences(content, oldText);
    }
  }
  if (count === 0) {
    return {
      ok: false,
      missing: true,
      error: `oldText was not found in ${rel}. Read the file again (read_file) and copy the text exactly, whitespace included (without the line numbers).`,
    };
  }
  if (count > 1) {
    return {
      ok: false,
      error: `oldText occurs ${count} times in ${rel}; include more of the surrounding lines so it matches exactly one place.`,
    };
  }
  return { ok: true, start: content.indexOf(oldText), oldText, newText };
}

function occurrences(content: string, text: string): number {
  let count = 0;
  for (let at = content.indexOf(text); at >= 0; at = content.indexOf(text, at + text.length)) count++;
  return count;
}

export function editFileTool({ workspace, gate, files }: WorkspaceToolDeps): AnyToolSpec {
  return defineTool<z.infer<typeof inputSchema>>({
    name: 'edit_file',
    description:
      'Replace oldText, which must occur exactly once in the file, with newText. Refused if the file changed since you read it: read it again.',
    capabilities: ['write'],
    inputSchema,
    async execute(input, context) {
      // Every call on this file waits for the ones called before it, then reads the file as they left it.
      const keyOf = async () => {
        const first = await resolveWorkspacePath(workspace.root, input.path);
        return first.ok ? first.abs : undefined;
      };
      return oneFileAtATime(keyOf, context.signal, (key) => edit(input, context, key));
    },
  });

  async function edit(input: z.infer<typeof inputSchema>, context: ToolCallContext, key: string | undefined) {
    const where = await resolveWorkspacePath(workspace.root, input.path);
    if (!where.ok) return { error: where.error };
    if (key !== undefined && where.abs !== key)
      return { error: `${where.rel} changed while waiting for an earlier edit of it (a link now leads elsewhere); nothing was written.` };
    if (!where.exists) return { error: `There is no file ${where.rel}. To create a file use write_file.` };
    if ((where.links ?? 1) > 1) return { error: `Refused "${where.rel}": ${hardLinkReason(where.links!)}. Nothing was written.` };
    const before = await workspace.readFile(where.abs).catch((e: unknown) => ({ error: `Cannot read ${where.rel}: ${errorText(e)}` }));
    if (typeof before !== 'string') return before;
    if (looksBinary(before)) return { error: `${where.rel} is a binary file; it cannot be edited as text.` };
    const found = locate(before, input.oldText, input.newText, where.rel);
    if (!found.ok) return { error: found.error };
    const early = await files.check(where.abs, where.rel, 'edit');
    if (!early.ok) return { error: early.error };

    // The diff the approval shows: this edit applied to the file as the guard just read it (an unsaved buffer included).
    const seen = early.current.bytes?.toString('utf8') ?? before;
    const shown = locate(seen, input.oldText, input.newText, where.rel);
    const proposed = shown.ok ? seen.slice(0, shown.start) + shown.newText + seen.slice(shown.start + shown.oldText.length) : undefined;
    const change = proposed === undefined ? undefined : { before: seen, after: proposed };
    const allowed = await gate.check('edit_file', { kind: 'edit', path: where.rel, ...(change ? { change } : {}) }, input, context);
    if (!allowed.ok) return { error: allowed.error };
    context.signal.throwIfAborted();

    // Approval can take a while: apply the edit to the file as it is now, and only if it still fits.
    const again = await resolveWorkspacePath(workspace.root, input.path);
    if (!again.ok || again.abs !== where.abs)
      return { error: `${where.rel} changed while waiting for approval (a link now leads elsewhere); nothing was written.` };
    const guard = await files.check(again.abs, where.rel, 'edit');
    if (!guard.ok) return { error: guard.error };
    if (!guard.current.bytes) return { error: `${where.rel} was removed while waiting for approval; nothing was written.` };
    // The text the user sees (an unsaved editor buffer included), as the guard just read it.
    const current = guard.current.bytes.toString('utf8');
    const now = locate(current, input.oldText, input.newText, where.rel);
    if (!now.ok) return { error: `${where.rel} changed while waiting for approval and the edit no longer applies: ${now.error}` };
    const after = current.slice(0, now.start) + now.newText + current.slice(now.start + now.oldText.length);
    try {
      // Bound to the file just read: if it was replaced since, the write is refused.
      await workspace.writeFile(again.abs, after, again.identity ?? null);
    } catch (error) {
      return { error: `Could not write ${where.rel}: ${errorText(error)}` };
    }
    await files.wrote({ abs: again.abs, rel: where.rel, before: guard.current, after, tool: 'edit_file', toolCallId: context.toolCallId });
    return { path: where.rel, line: current.slice(0, now.start).split('\n').length };
  }
}
