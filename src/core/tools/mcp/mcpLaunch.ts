import { isAbsolute, resolve } from 'node:path';
import { commandEnvironment, COMMAND_TOKEN } from '../../access/sandbox/commandEnv';
import { commandLauncher, type LauncherSettings } from '../../access/sandbox/commandLauncher';
import { expandRecord, expandVariables, type VariableContext } from '../../config/mcp/expandVariables';
import type { McpServerDecl } from '../../config/mcp/mcpDeclarations';
import type { McpLaunch } from './mcpTypes';
import { isPackageRunner, packageRunnerFolder } from '../../access/commands/packageRunner';

export interface PreparedLaunch {
  launch: McpLaunch;
  /** The stdio server's token (commandEnv.ts): what it leaves running is found by it and ended. */
  token?: string;
  sandboxed: boolean;
  /** Once the server has stopped. */
  release(): void;
  /** A start that failed: its message, with what the sandbox had to do with it and the setting that changes it. */
  explainFailure(message: string): string;
}

/** The package registries a workspace-declared server reaches from the sandbox, so `npx -y`, `uvx` and `pipx run` start it. */
export const PACKAGE_REGISTRY_HOSTS = ['registry.npmjs.org', 'pypi.org', 'files.pythonhosted.org'];

export interface LaunchContext {
  root: string;
  /** Folders the server may not write in the sandbox (the thread storage), wherever they lie. */
  readOnly?: readonly string[];
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  settings: LauncherSettings;
  /** The sandbox's own notice (no sandbox here), for the run's node. */
  warn(message: string): void;
}

/**
 * How to reach a declared server, its variables expanded. A stdio server the user declared (user
 * settings, their own agent files) starts as they would run it, as VS Code and Claude Code start
 * them: unsandboxed. One a workspace declared starts like an agent's command, in the OS sandbox
 * where it is on, with the package registries reachable besides subagents.sandbox.allowedHosts.
 * Both get the commands' environment (the product's keys and the user's exclusions taken out)
 * plus the server's own `env`.
 */
export async function prepareMcpLaunch(decl: McpServerDecl, context: LaunchContext): Promise<PreparedLaunch> {
  const vars: VariableContext = { env: context.env, workspaceFolder: context.root, userHome: context.home, bareNames: decl.bareNames };
  const config = decl.config;
  if (config.transport !== 'stdio') {
    return {
      launch: { transport: config.transport, url: expandVariables(config.url, vars), headers: expandRecord(config.headers, vars) },
      sandboxed: false,
      release: () => {},
      explainFailure: (m) => m,
    };
  }
  const command = expandVariables(config.command, vars);
  const args = config.args.map((a) => expandVariables(a, vars));
  const own = expandRecord(config.env, vars);
  const cwdText = config.cwd === undefined ? context.root : expandVariables(config.cwd, vars);
  // A package runner with no cwd declared starts outside the workspace: `npx <server>` there would
  // run a node_modules/.bin/<server> an agent planted (packageRunner.ts).
  const cwd =
    config.cwd === undefined && isPackageRunner(command, args)
      ? packageRunnerFolder()
      : isAbsolute(cwdText)
        ? cwdText
        : resolve(context.root, cwdText);
  const unsandboxed = (): PreparedLaunch => {
    const env = { ...commandEnvironment(context.env, context.settings['commandEnv.exclude']), ...own };
    return {
      launch: { transport: 'stdio', file: command, args, env, cwd },
      token: env[COMMAND_TOKEN],
      sandboxed: false,
      release: () => {},
      explainFailure: (m) => m,
    };
  };
  if (decl.origin === 'user') return unsandboxed();
  const settings = {
    ...context.settings,
    'sandbox.allowedHosts': [...new Set([...context.settings['sandbox.allowedHosts'], ...PACKAGE_REGISTRY_HOSTS])],
  };
  const launcher = commandLauncher(context.root, settings, context.warn, { readOnly: context.readOnly ?? [] });
  const sandbox = await launcher.state();
  if (sandbox.refusal) {
    throw new Error(
      `${sandbox.refusal.replace(/^Commands must/, `The MCP server "${decl.name}" (${decl.source}), like commands, must`).replace(/ Nothing was run\.$/, '')} Declared in your user settings (subagents.mcpServers), it would start unsandboxed.`,
    );
  }
  if (!sandbox.sandboxed) return unsandboxed();
  const prepared = await launcher.prepare(shellLine([command, ...args]), { sandboxed: true, hardenGit: false });
  const env = { ...prepared.launch.env, ...own };
  return {
    launch: { transport: 'stdio', file: prepared.launch.file, args: prepared.launch.args, env, cwd },
    token: env[COMMAND_TOKEN],
    sandboxed: true,
    release: () => void prepared.release(),
    explainFailure: (message) => `${message.replace(/\.?$/, '.')} ${sandboxedServerNote(decl)}`,
  };
}

/** What a workspace-declared server in the sandbox may do, and the settings that change it. */
function sandboxedServerNote(decl: McpServerDecl): string {
  return (
    `It ran in the OS sandbox, as ${decl.source} is the workspace's: it may write only the workspace and reach only the package registries (${PACKAGE_REGISTRY_HOSTS.join(', ')}) ` +
    'and the hosts in subagents.sandbox.allowedHosts. Add the hosts it needs there, declare the server in your user settings (subagents.mcpServers: those start unsandboxed, ' +
    'as you would run them), or set subagents.sandbox.mode to "off".'
  );
}

/** Words as one POSIX shell line, each quoted, for the sandbox (which wraps a command line). */
function shellLine(words: readonly string[]): string {
  return words.map((w) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ');
}
