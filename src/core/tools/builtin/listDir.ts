import { readdir } from 'node:fs/promises';
import { z } from 'zod';
import { lazySchema } from '../../../shared/lazySchema';
import { defineTool, type AnyToolSpec } from '../toolSpec';
import { resolveWorkspacePath } from '../../access/paths/workspacePath';
import type { WorkspaceToolDeps } from './toolDeps';

const MAX_ENTRIES = 1000;

const inputSchema = lazySchema(() =>
  z.object({
    path: z.string().describe('Relative to the workspace root; "." for the root.'),
  }),
);

export function listDirTool({ workspace }: WorkspaceToolDeps): AnyToolSpec {
  return defineTool<z.infer<typeof inputSchema>>({
    name: 'list_dir',
    description: 'List one workspace folder, not recursive: names sorted, folders ending in "/", links in "@".',
    capabilities: ['read'],
    inputSchema,
    async execute(input, { signal }) {
      const where = await resolveWorkspacePath(workspace.root, input.path);
      if (!where.ok) return { error: where.error };
      if (!where.exists) return { error: `There is no folder ${where.rel}.` };
      signal.throwIfAborted();
      let entries;
      try {
        entries = await readdir(where.abs, { withFileTypes: true });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        return {
          error:
            code === 'ENOTDIR'
              ? `${where.rel} is a file; use read_file to read it.`
              : `Cannot list ${where.rel || '.'}: ${code ?? String(error)}.`,
        };
      }
      const names = entries
        .map((e) => (e.isSymbolicLink() ? `${e.name}@` : e.isDirectory() ? `${e.name}/` : e.name))
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const shown = names.slice(0, MAX_ENTRIES);
      const note =
        names.length > MAX_ENTRIES
          ? `Showing ${MAX_ENTRIES} of ${names.length} entries; use find_files with a pattern to narrow down.`
          : undefined;
      return { path: where.rel || '.', entries: shown, ...(note ? { note } : {}) };
    },
  });
}
