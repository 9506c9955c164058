import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { lazySchema } from '../../../shared/lazySchema';
import { defineTool, type AnyToolSpec, type ToolCallContext } from '../toolSpec';
import { oneFileAtATime } from '../../platform/files/oneFileAtATime';
import { hardLinkReason } from '../../platform/files/writeInside';
import { resolveWorkspacePath } from '../../access/paths/workspacePath';
import type { WorkspaceToolDeps } from './toolDeps';
import { errorText } from '../../../shared/errorText';

const inputSchema = lazySchema(() =>
  z.object({
    path: z.string().describe('Relative to the workspace root; folders are created.'),
    content: z.string().describe('The whole new content.'),
  }),
);

export function writeFileTool({ workspace, gate, files }: WorkspaceToolDeps): AnyToolSpec {
  return defineTool<z.infer<typeof inputSchema>>({
    name: 'write_file',
    description:
      'Create or overwrite a whole workspace file (for part of a file, use edit_file). Refused if the file changed since you read it: read it again.',
    capabilities: ['write'],
    inputSchema,
    async execute(input, context) {
      // Waits for the calls on this file called before it (oneFileAtATime.ts), then judges the file as they left it.
      const keyOf = async () => {
        const first = await resolveWorkspacePath(workspace.root, input.path);
        return first.ok ? first.abs : undefined;
      };
      return oneFileAtATime(keyOf, context.signal, (key) => write(input, context, key));
    },
  });

  async function write(input: z.infer<typeof inputSchema>, context: ToolCallContext, key: string | undefined) {
    const where = await resolveWorkspacePath(workspace.root, input.path);
    if (!where.ok) return { error: where.error };
    if (key !== undefined && where.abs !== key)
      return { error: `${where.rel} changed while waiting for an earlier write of it (a link now leads elsewhere); nothing was written.` };
    if (where.exists && (await stat(where.abs)).isDirectory()) return { error: `${where.rel || '.'} is a folder, not a file.` };
    if ((where.links ?? 1) > 1) return { error: `Refused "${where.rel}": ${hardLinkReason(where.links!)}. Nothing was written.` };
    // A write the guard will refuse is not worth the user's approval.
    const early = await files.check(where.abs, where.rel, 'write');
    if (!early.ok) return { error: early.error };
    const change = { before: early.current.bytes?.toString('utf8') ?? null, after: input.content };
    const allowed = await gate.check('write_file', { kind: 'edit', path: where.rel, change }, input, context);
    if (!allowed.ok) return { error: allowed.error };
    context.signal.throwIfAborted();
    // The wait for approval can be long: the path must still lead where it led when it was approved.
    const again = await resolveWorkspacePath(workspace.root, input.path);
    if (!again.ok || again.abs !== where.abs)
      return { error: `${where.rel} changed while waiting for approval (a link now leads elsewhere); nothing was written.` };
    const guard = await files.check(again.abs, where.rel, 'write');
    if (!guard.ok) return { error: guard.error };
    try {
      await workspace.writeFile(again.abs, input.content, again.identity ?? null);
    } catch (error) {
      return { error: `Could not write ${where.rel}: ${errorText(error)}` };
    }
    await files.wrote({
      abs: again.abs,
      rel: where.rel,
      before: guard.current,
      after: input.content,
      tool: 'write_file',
      toolCallId: context.toolCallId,
    });
    return { path: where.rel, created: !where.exists, chars: input.content.length };
  }
}
