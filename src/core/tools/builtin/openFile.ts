import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { lazySchema } from '../../../shared/lazySchema';
import { defineTool, type AnyToolSpec } from '../toolSpec';
import { resolveWorkspacePath } from '../../access/paths/workspacePath';
import type { WorkspaceToolDeps } from './toolDeps';

const inputSchema = lazySchema(() =>
  z.object({
    path: z.string().describe('Relative to the workspace root.'),
    line: z.number().int().min(1).optional().describe('1-based.'),
  }),
);

export function openFileTool({ workspace }: WorkspaceToolDeps): AnyToolSpec {
  return defineTool<z.infer<typeof inputSchema>>({
    name: 'open_file',
    description: "Open a file in the user's editor, at a line if given.",
    capabilities: ['interactive'],
    inputSchema,
    async execute(input, { signal }) {
      const where = await resolveWorkspacePath(workspace.root, input.path);
      if (!where.ok) return { error: where.error };
      if (!where.exists || (await stat(where.abs)).isDirectory()) return { error: `There is no file ${where.rel}.` };
      signal.throwIfAborted();
      await workspace.openFile(where.abs, input.line);
      return { opened: where.rel };
    },
  });
}
