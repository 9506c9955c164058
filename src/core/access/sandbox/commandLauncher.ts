import { existsSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { EngineSettings } from '../../config/settings/engineSettings';
import type { CommandLaunch, Logger } from '../../ports';
import { errorText } from '../../../shared/errorText';
import { commandEnvironment } from './commandEnv';
import { withGitConfig, withGitHardening } from './gitHardening';
import { newCommandTempFolder, removeCommandTempFolder, withTempFolder } from './commandTempFolder';
import { forgetPlaceholders, notePlaceholders } from './sandboxPlaceholders';
import { sandboxPolicy, type PolicyPaths } from './sandboxPolicy';
import type { SandboxRuntime } from './sandboxRuntime';

/**
 * Whether the next command runs in the sandbox, or why no command may run. `unavailable`: why no
 * sandbox can start here (mode "auto" or "on"), for callers that word their own notice (hooks).
 */
export type SandboxState =
  { sandboxed: boolean; refusal?: undefined; unavailable?: string } | { sandboxed: false; refusal: string; unavailable: string };

export interface PreparedCommand {
  launch: CommandLaunch;
  /** Call once the command has ended: removes its temp folder (never throws). */
  release(): Promise<void>;
}

export interface CommandLauncher {
  state(): Promise<SandboxState>;
  /**
   * How to start `command`: in the sandbox when `sandboxed`, always with the filtered environment,
   * and with git's launcher settings off when it runs unasked (`hardenGit`).
   */
  prepare(command: string, options: { sandboxed: boolean; hardenGit: boolean }): Promise<PreparedCommand>;
  /** The environment of agents' commands (the product's keys and the user's exclusions stripped), for the product's own helpers such as ripgrep. */
  environment(): Record<string, string>;
}

export type LauncherSettings = Pick<EngineSettings, 'sandbox.mode' | 'sandbox.allowedHosts' | 'commandEnv.exclude'>;

/** sandbox-runtime's manager is one per process: so is its start, whichever run asks first. */
let shared: Promise<SandboxRuntime> | undefined;
/** Roots whose missing sandbox was already reported: once per process is enough. */
const warned = new Set<string>();

function sharedSandbox(root: string, settings: LauncherSettings): Promise<SandboxRuntime> {
  shared ??= import('./sandboxRuntime').then((m) => m.startSandbox(sandboxPolicy(root, homedir(), settings['sandbox.allowedHosts'])));
  return shared;
}

/**
 * Stops the process's sandbox, if a command started one: at the end of a CLI run and of a window,
 * once no command or MCP server can still use it. The next command would start it again. Never
 * throws: a failed stop is logged (the process is ending anyway).
 */
export async function stopSandbox(logger: Logger): Promise<void> {
  const started = shared;
  shared = undefined;
  if (!started) return;
  try {
    await (await started).stop();
    forgetPlaceholders();
  } catch (error) {
    logger.warn(`The sandbox did not stop cleanly: ${errorText(error)}`);
  }
}

/** A plain shell: bash where there is one (the judge reads bash), cmd.exe on Windows. */
export function shellLaunch(command: string, env: Record<string, string>): CommandLaunch {
  if (process.platform === 'win32')
    return { file: process.env.ComSpec ?? 'cmd.exe', args: ['/d', '/s', '/c', command], env, verbatim: true };
  return { file: existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh', args: ['-c', command], env };
}

/**
 * Starts agents' commands for one run in the workspace `root`: sandboxed per `subagents.sandbox.mode`
 * (auto: where the platform has one, `on`: never without it), in an environment without the
 * product's keys. Where no sandbox can start in auto mode, `warn` is told once. A worktree run's
 * commands may also write `paths.alsoWritable` (its git paths); `paths.readOnly` (the engine's
 * thread store and worktrees root) stay read-only to them wherever they lie. Each sandboxed
 * command gets a temp folder of its own (commandTempFolder.ts).
 */
export function commandLauncher(
  root: string,
  settings: LauncherSettings,
  warn: (message: string) => void,
  paths: PolicyPaths = {},
): CommandLauncher {
  const mode = settings['sandbox.mode'];
  // Found at the first command, not when the run's tools are made: most runs never start one, and this
  // is a blocking call on the host's thread.
  let found: string | undefined;
  const realRoot = (): string => (found ??= realpathOrSelf(root));
  return {
    environment: () => commandEnvironment(process.env, settings['commandEnv.exclude']),
    async state() {
      if (mode === 'off') return { sandboxed: false };
      const runtime = await sharedSandbox(realRoot(), settings);
      if (!runtime.unavailable) return { sandboxed: true };
      if (mode === 'on') {
        return {
          sandboxed: false,
          refusal: `Commands must run in the OS sandbox (subagents.sandbox.mode is "on"), but it cannot start here: ${runtime.unavailable}. Nothing was run.`,
          unavailable: runtime.unavailable,
        };
      }
      const where = realRoot();
      if (!warned.has(where)) {
        warned.add(where);
        warn(
          `Commands run without an OS sandbox: ${runtime.unavailable}. Protected files are guarded only by a text check of each command line, ` +
            'which code a command runs (a script, node -e, an archive) can get around. Install bubblewrap, socat and ripgrep (Linux) to sandbox them, ' +
            'or set subagents.sandbox.mode to "off" to run them unsandboxed without this notice.',
        );
      }
      return { sandboxed: false, unavailable: runtime.unavailable };
    },
    async prepare(command, { sandboxed, hardenGit }) {
      const base = commandEnvironment(process.env, settings['commandEnv.exclude']);
      const env = hardenGit ? withGitHardening(base) : base;
      if (!sandboxed) return { launch: shellLaunch(command, env), release: () => Promise.resolve() };
      const runtime = await sharedSandbox(realRoot(), settings);
      const temp = newCommandTempFolder();
      let wrapped;
      let policy;
      try {
        policy = sandboxPolicy(realRoot(), homedir(), settings['sandbox.allowedHosts'], {
          alsoWritable: [...(paths.alsoWritable ?? []), temp],
          readOnly: (paths.readOnly ?? []).map(realpathOfMaybeMissing),
          // Its siblings are the temp folders of the other commands, running or to come.
          hidden: [dirname(temp)],
        });
        wrapped = await runtime.wrap(withTempFolder(command, temp), policy);
      } catch (error) {
        await removeCommandTempFolder(temp);
        throw error;
      }
      notePlaceholders(wrapped.placeholders);
      const tempEnv = { TMPDIR: temp, TMP: temp, TEMP: temp };
      const sandboxEnv = {
        ...(wrapped.gitExcludesFile ? withGitConfig(env, [['core.excludesFile', wrapped.gitExcludesFile]]) : env),
        ...tempEnv,
      };
      let released: Promise<void> | undefined;
      return {
        launch: { file: '/bin/sh', args: ['-c', wrapped.line], env: sandboxEnv },
        release: () => {
          if (!released && runtime.release(policy.allowedHosts)) forgetPlaceholders();
          released ??= removeCommandTempFolder(temp);
          return released;
        },
      };
    },
  };
}

/** The path with its links resolved; one that does not exist yet, its folder's real path and its name. */
function realpathOfMaybeMissing(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return join(realpathOrSelf(dirname(path)), basename(path));
  }
}

/** The path with its links resolved, or as given when it cannot be (it will fail where it is used). */
function realpathOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
