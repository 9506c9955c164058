import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { lazySchema } from '../../../shared/lazySchema';
import { defineTool, type AnyToolSpec } from '../toolSpec';
import { resolveWorkspacePath } from '../../access/paths/workspacePath';
import { kindOf } from '../../platform/files/fileIdentity';
import { errorText } from '../../../shared/errorText';
import { numberLine } from './lineNumbers';
import { looksBinary, MAX_READ_BYTES, type WorkspaceToolDeps } from './toolDeps';

const MAX_LINES = 2000;
const MAX_CHARS = 100_000;

const inputSchema = lazySchema(() =>
  z.object({
    path: z.string().describe('Relative to the workspace root.'),
    startLine: z.number().int().min(1).optional().describe('1-based; default 1.'),
    endLine: z.number().int().min(1).optional().describe('Inclusive.'),
  }),
);

export function readFileTool({ workspace, gate, files }: WorkspaceToolDeps): AnyToolSpec {
  return defineTool<z.infer<typeof inputSchema>>({
    name: 'read_file',
    description:
      'Read a workspace text file, whole or lines startLine to endLine (2000 at most a call). ' +
      'Lines come numbered as `cat -n` does; the numbers are not part of the file.',
    capabilities: ['read'],
    inputSchema,
    async execute(input, context) {
      const where = await resolveWorkspacePath(workspace.root, input.path);
      if (!where.ok) return { error: where.error };
      if (!where.exists) return { error: `There is no file ${where.rel}. Use find_files or list_dir to find the right path.` };
      // A file that may hold secrets (.env, a key) asks first, unless the user chose trust.
      const allowed = await gate.check('read_file', { kind: 'read', path: where.rel }, input, context);
      if (!allowed.ok) return { error: allowed.error };
      const info = await stat(where.abs);
      if (info.isDirectory()) return { error: `${where.rel || '.'} is a folder; use list_dir to see what is in it.` };
      // A pipe or a device would block the read or never end: refused before anything opens it.
      if (!info.isFile()) return { error: `${where.rel} is ${kindOf(info)}, not a regular file; read_file reads only regular files.` };
      if (info.size > MAX_READ_BYTES)
        return { error: `${where.rel} is ${info.size} bytes, too large to read; use search_text to find what you need in it.` };
      context.signal.throwIfAborted();
      let text: string;
      try {
        text = await workspace.readFile(where.abs);
      } catch (error) {
        return { error: `Cannot read ${where.rel}: ${errorText(error)}.` };
      }
      if (looksBinary(text)) return { error: `${where.rel} is a binary file, not text.` };
      // What this agent now knows of the file: its writes are judged against it (the conflict guard).
      files.read(where.abs, text);
      const lines = text.split(/\r?\n/);
      if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
      const total = lines.length;
      const start = input.startLine ?? 1;
      if (start > Math.max(total, 1)) return { error: `${where.rel} has ${total} lines; startLine ${start} is past its end.` };
      let end = Math.min(input.endLine ?? total, total, start + MAX_LINES - 1);
      if (end < start) return { error: `endLine (${input.endLine}) is before startLine (${start}).` };
      let content = lines
        .slice(start - 1, end)
        .map((line, i) => numberLine(line, start + i))
        .join('\n');
      if (content.length > MAX_CHARS) {
        // Cut at a line boundary so the range stays exact.
        const kept = content.slice(0, MAX_CHARS).split('\n');
        if (kept.length > 1) kept.pop();
        end = start + kept.length - 1;
        content = kept.join('\n');
      }
      const wanted = Math.min(input.endLine ?? total, total);
      const note = end < wanted ? `Showing lines ${start}–${end} of ${total}; read on with startLine ${end + 1}.` : undefined;
      return { path: where.rel, startLine: start, endLine: end, totalLines: total, content, ...(note ? { note } : {}) };
    },
  });
}
