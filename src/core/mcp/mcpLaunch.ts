import { isAbsolute, resolve } from 'node:path';
import { commandEnvironment, COMMAND_TOKEN } from '../sandbox/commandEnv';
import { commandLauncher, type LauncherSettings } from '../sandbox/commandLauncher';
import { expandRecord, expandVariables, type VariableContext } from './expandVariables';
import type { McpServerDecl } from './mcpDeclarations';
import type { McpLaunch } from './mcpTypes';

export interface PreparedLaunch {
  launch: McpLaunch;
  /** The stdio server's token (commandEnv.ts): what it leaves running is found by it and ended. */
  token?: string;
  sandboxed: boolean;
  /** Once the server has stopped. */
  release(): void;
}

export interface LaunchContext {
  root: string;
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  settings: LauncherSettings;
  /** The sandbox's own notice (no sandbox here), for the run's node. */
  warn(message: string): void;
}

/**
 * How to reach a declared server, its variables expanded. A stdio server starts like an agent's
 * command: in the OS sandbox where it is on, with the same environment (the product's keys and
 * the user's exclusions taken out) plus the server's own `env`.
 */
export async function prepareMcpLaunch(decl: McpServerDecl, context: LaunchContext): Promise<PreparedLaunch> {
  const vars: VariableContext = { env: context.env, workspaceFolder: context.root, userHome: context.home, bareNames: decl.bareNames };
  const config = decl.config;
  if (config.transport !== 'stdio') {
    return { launch: { transport: config.transport, url: expandVariables(config.url, vars), headers: expandRecord(config.headers, vars) }, sandboxed: false, release: () => {} };
  }
  const command = expandVariables(config.command, vars);
  const args = config.args.map((a) => expandVariables(a, vars));
  const own = expandRecord(config.env, vars);
  const cwdText = config.cwd === undefined ? context.root : expandVariables(config.cwd, vars);
  const cwd = isAbsolute(cwdText) ? cwdText : resolve(context.root, cwdText);
  const launcher = commandLauncher(context.root, context.settings, context.warn);
  const sandbox = await launcher.state();
  if (sandbox.refusal) throw new Error(sandbox.refusal.replace(/^Commands must/, 'MCP servers, like commands, must').replace(/ Nothing was run\.$/, ''));
  if (!sandbox.sandboxed) {
    const env = { ...commandEnvironment(context.env, context.settings['commandEnv.exclude']), ...own };
    return { launch: { transport: 'stdio', file: command, args, env, cwd }, token: env[COMMAND_TOKEN], sandboxed: false, release: () => {} };
  }
  const prepared = await launcher.prepare(shellLine([command, ...args]), { sandboxed: true, hardenGit: false });
  const env = { ...prepared.launch.env, ...own };
  return { launch: { transport: 'stdio', file: prepared.launch.file, args: prepared.launch.args, env, cwd }, token: env[COMMAND_TOKEN], sandboxed: true, release: () => prepared.release() };
}

/** Words as one POSIX shell line, each quoted, for the sandbox (which wraps a command line). */
function shellLine(words: readonly string[]): string {
  return words.map((w) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ');
}
