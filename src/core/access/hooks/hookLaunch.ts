import type { HookDeclaration } from '../../config/hooks/hookDeclarations';
import { hookScripts } from '../../config/hooks/readHooks';
import type { CommandLaunch } from '../../ports';
import { withoutProductKeys } from '../sandbox/commandEnv';
import type { CommandLauncher } from '../sandbox/commandLauncher';
import { isSandboxSetupFailure } from '../sandbox/sandboxSetupFailure';
import { errorText } from '../../../shared/errorText';
import { runHookProcess, type HookProcessResult } from './runHookProcess';

/** Where a hook runs: the workspace, and the run's command launcher (its sandbox, temp folders, environment). */
export interface HookPlace {
  cwd: string;
  commands: CommandLauncher;
  signal: AbortSignal;
  /** Variables hooks never see besides the product's keys (subagents.commandEnv.exclude). */
  exclude?: readonly string[];
  /** subagents.sandbox.userHooksOutside (user settings only): the user's own hooks may run outside the sandbox. */
  userHooksOutside?: boolean;
}

/** How one hook ran, or why it was not run. */
export type HookRun =
  | {
      result: HookProcessResult;
      /** It ran in the OS sandbox. */
      sandboxed: boolean;
      /** It should have run in the OS sandbox, but none can start here (mode "auto"): why. */
      unsandboxed?: string;
    }
  | { refused: string };

/** The setting that lets the user's own hooks run outside the sandbox, for messages. */
export const USER_HOOKS_OUTSIDE = 'subagents.sandbox.userHooksOutside';

/**
 * Whether the setting would let this hook run outside the sandbox: a user's own hook that runs no
 * workspace script. A repository hook never: the workspace cannot lift its own sandbox. Nor a
 * user's hook that runs a workspace script: that script is the workspace's, which an agent writes.
 */
export function userHookMayRunOutside(hook: HookDeclaration, cwd: string): boolean {
  return hook.scope === 'user' && hookScripts(cwd, hook.command).length === 0;
}

/**
 * Runs a hook with `input` on stdin. Every hook runs in the workspace, where the tools it starts
 * load what an agent of the request may have written (`npx` a program in `./node_modules/.bin`,
 * eslint its `eslint.config.js`, `python -m` a module from the folder, a script's `source`d
 * helper): so it starts through the run's command launcher as agents' commands do (sandboxed where
 * the launcher is, its own temp folder, the product's keys stripped, git's launchers off). With
 * subagents.sandbox.mode "on" and no sandbox, it is not run. Only the user's own hooks run outside,
 * as Claude Code runs them, and only when the user's settings say so (subagents.sandbox.userHooksOutside).
 */
export async function runHookIn(place: HookPlace, hook: HookDeclaration, input: unknown, timeoutMs: number): Promise<HookRun> {
  const project = { CLAUDE_PROJECT_DIR: place.cwd };
  const run = (launch: CommandLaunch) => runHookProcess({ launch, input, cwd: place.cwd, timeoutMs, signal: place.signal });
  const mayRunOutside = userHookMayRunOutside(hook, place.cwd);
  if (place.userHooksOutside === true && mayRunOutside) {
    const env = { ...withoutProductKeys(process.env, place.exclude ?? []), ...project };
    return { result: await run({ file: '/bin/sh', args: ['-c', hook.command], env }), sandboxed: false };
  }
  const state = await place.commands.state();
  if (state.refusal) {
    const outside = mayRunOutside ? `, or set ${USER_HOOKS_OUTSIDE} to true in your user settings to run your own hooks outside it` : '';
    return {
      refused:
        `was not run: hooks must run in the OS sandbox (subagents.sandbox.mode is "on"), but it cannot start here: ${state.unavailable}. ` +
        `Install bubblewrap, socat and ripgrep (Linux) to sandbox them, or set subagents.sandbox.mode to "auto" to run them unsandboxed with a notice${outside}`,
    };
  }
  const once = async (): Promise<HookProcessResult> => {
    let prepared;
    try {
      prepared = await place.commands.prepare(hook.command, { sandboxed: state.sandboxed, hardenGit: true });
    } catch (error) {
      return { exitCode: null, stdout: '', stderr: '', durationMs: 0, timedOut: false, truncated: false, startError: errorText(error) };
    }
    try {
      return await run({ ...prepared.launch, env: { ...prepared.launch.env, ...project } });
    } finally {
      await prepared.release();
    }
  };
  let result = await once();
  // The sandbox did not set up (sandboxSetupFailure.ts): nothing ran, so once more.
  if (state.sandboxed && result.exitCode === 1 && isSandboxSetupFailure(result.stderr) && !place.signal.aborted) result = await once();
  return { result, sandboxed: state.sandboxed, ...(!state.sandboxed && state.unavailable ? { unsandboxed: state.unavailable } : {}) };
}
