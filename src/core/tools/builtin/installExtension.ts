import { z } from 'zod';
import { lazySchema } from '../../../shared/lazySchema';
import { defineTool, type AnyToolSpec } from '../toolSpec';
import type { WorkspaceToolDeps } from './toolDeps';
import { errorText } from '../../../shared/errorText';

/** publisher.name, as the marketplace spells extension ids. */
const EXTENSION_ID = /^[a-z0-9][a-z0-9-]*\.[a-z0-9][a-z0-9-]*$/i;

const inputSchema = lazySchema(() =>
  z.object({
    id: z.string().min(3).max(200).describe('publisher.name, e.g. "dbaeumer.vscode-eslint".'),
  }),
);

export function installExtensionTool({ workspace, gate }: WorkspaceToolDeps): AnyToolSpec {
  return defineTool<z.infer<typeof inputSchema>>({
    name: 'install_extension',
    description: 'Install a VS Code extension (the user may be asked first).',
    capabilities: ['install', 'network'],
    inputSchema,
    async execute(input, context) {
      if (!EXTENSION_ID.test(input.id)) return { error: `"${input.id}" is not an extension id; it looks like publisher.name.` };
      const allowed = await gate.check('install_extension', { kind: 'install', what: `the VS Code extension ${input.id}` }, input, context);
      if (!allowed.ok) return { error: allowed.error };
      context.signal.throwIfAborted();
      try {
        await workspace.installExtension(input.id, context.signal);
      } catch (error) {
        return { error: `Could not install ${input.id}: ${errorText(error)}` };
      }
      return { installed: input.id };
    },
  });
}
