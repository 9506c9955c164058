import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { processTempFolder } from '../sandbox/processTempFolder';

/**
 * Whether a declared command (an ACP agent's, an MCP server's) is a package runner: `npx`, `npm
 * exec`, `pnpm dlx`, `bunx`, `yarn dlx`, `uvx` and the like. Started in the workspace, such a
 * runner prefers what the workspace offers: `npx x` runs `node_modules/.bin/x` when there is one,
 * and uv reads the folder's `uv.toml`. An agent can write those files, so a runner the user meant
 * to fetch a package from the registry would run a program the agent planted. Such a runner starts
 * in `packageRunnerFolder()` instead; the agent is told the workspace another way (ACP's
 * `session/new` cwd, `${workspaceFolder}` in an MCP server's arguments).
 */
export function isPackageRunner(command: string, args: readonly string[]): boolean {
  const name = basename(command.replace(/\\/g, '/'))
    .toLowerCase()
    .replace(/\.(cmd|exe|ps1|bat)$/, '');
  // The subcommand: the first word that is not an option (`npm --yes exec`).
  const sub = args.filter((a) => !a.startsWith('-'));
  switch (name) {
    case 'npx':
    case 'pnpx':
    case 'bunx':
    case 'uvx':
      return true;
    case 'npm':
      return sub[0] === 'exec' || sub[0] === 'x';
    case 'pnpm':
    case 'yarn':
      return sub[0] === 'dlx';
    case 'bun':
      return sub[0] === 'x';
    case 'uv':
      return sub[0] === 'x' || (sub[0] === 'tool' && (sub[1] === 'run' || sub[1] === 'x'));
    case 'pipx':
      return sub[0] === 'run';
    default:
      return false;
  }
}

let folder: string | undefined;

/**
 * The folder package runners start in: this process's own (0700, outside any workspace, removed at
 * exit), holding an empty `package.json` and `node_modules/.bin` so npm and its kin look no
 * further up (a shared temp folder's `node_modules` is anyone's to plant).
 */
export function packageRunnerFolder(): string {
  if (folder) return folder;
  const made = processTempFolder('subagents-runner-');
  writeFileSync(join(made, 'package.json'), '{ "name": "subagents-runner", "private": true }\n');
  mkdirSync(join(made, 'node_modules', '.bin'), { recursive: true });
  folder = made;
  return made;
}
