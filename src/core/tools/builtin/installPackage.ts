import { z } from 'zod';
import { lazySchema } from '../../../shared/lazySchema';
import { defineTool, type AnyToolSpec } from '../toolSpec';
import { commandOutcome, MAX_COMMAND_OUTPUT } from './runCommand';
import type { WorkspaceToolDeps } from './toolDeps';
import { errorText } from '../../../shared/errorText';

const INSTALL_TIMEOUT_MS = 10 * 60_000;

/**
 * Names are checked against what each registry allows, and never start with "-": the name is put
 * into a command line, so nothing in it may read as an option or as shell syntax.
 */
const NPM_NAME = /^(@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*(@[a-z0-9._^~*-]+)?$/i;
const PIP_NAME = /^[a-z0-9][a-z0-9._-]*(\[[a-z0-9,._-]+\])?(==[a-z0-9.*+!_-]+)?$/i;

const MANAGERS = {
  npm: { name: NPM_NAME, command: (pkg: string, dev: boolean) => `npm install ${dev ? '--save-dev ' : ''}${pkg}` },
  pnpm: { name: NPM_NAME, command: (pkg: string, dev: boolean) => `pnpm add ${dev ? '--save-dev ' : ''}${pkg}` },
  yarn: { name: NPM_NAME, command: (pkg: string, dev: boolean) => `yarn add ${dev ? '--dev ' : ''}${pkg}` },
  pip: { name: PIP_NAME, command: (pkg: string) => `python3 -m pip install ${pkg}` },
} as const;

const inputSchema = lazySchema(() =>
  z.object({
    manager: z.enum(['npm', 'pnpm', 'yarn', 'pip']),
    name: z.string().min(1).max(214).describe('Optionally with a version: "zod@4", "requests==2.32.3".'),
    dev: z.boolean().optional().describe('A dev dependency (not pip).'),
  }),
);

export function installPackageTool({ workspace, gate, agent, commands }: WorkspaceToolDeps): AnyToolSpec {
  return defineTool<z.infer<typeof inputSchema>>({
    name: 'install_package',
    description: 'Install a package into the workspace project (the user may be asked first).',
    capabilities: ['install', 'exec', 'network'],
    inputSchema,
    async execute(input, context) {
      const manager = MANAGERS[input.manager];
      if (!manager.name.test(input.name)) return { error: `"${input.name}" is not a valid ${input.manager} package name.` };
      const command = manager.command(input.name, input.dev ?? false);
      const allowed = await gate.check(
        'install_package',
        { kind: 'install', what: `${input.name} with ${input.manager} (\`${command}\`)` },
        input,
        context,
      );
      if (!allowed.ok) return { error: allowed.error };
      context.signal.throwIfAborted();
      try {
        // Outside the sandbox (it needs the registry, and the user approved it), but without the product's keys.
        const { launch } = await commands.prepare(command, { sandboxed: false, hardenGit: false });
        const result = await workspace.runCommand({
          command,
          launch,
          cwd: workspace.root,
          timeoutMs: INSTALL_TIMEOUT_MS,
          signal: context.signal,
          maxOutputChars: MAX_COMMAND_OUTPUT,
          label: agent,
        });
        return commandOutcome(result, INSTALL_TIMEOUT_MS);
      } catch (error) {
        return { error: `${input.manager} could not be started: ${errorText(error)}` };
      }
    },
  });
}
