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
}

/** How one hook ran, or why it was not run. */
export type HookRun =
  | {
      result: HookProcessResult;
      /** It should have run in the OS sandbox, but none can start here (mode "auto"): why. */
      unsandboxed?: string;
    }
  | { refused: string };

/**
 * Whether a hook runs in the OS sandbox: one the workspace declared, and any whose command runs a
 * workspace script. Consent covers its declaration and the scripts it names, not what they
 * `source`, nor the programs they find on a PATH the workspace holds (`./node_modules/.bin`): an
 * agent of the request may write those, and outside the sandbox their code would run as the user.
 * A user's own hook that runs no workspace file runs as Claude Code runs it, outside.
 */
export function hookNeedsSandbox(hook: HookDeclaration, cwd: string): boolean {
  return hook.scope === 'repository' || hookScripts(cwd, hook.command).length > 0;
}

/**
 * Runs a hook with `input` on stdin. One that needs the sandbox starts through the run's command
 * launcher as agents' commands do (sandboxed where the launcher is, its own temp folder, git's
 * launchers off); with subagents.sandbox.mode "on" and no sandbox, it is not run.
 */
export async function runHookIn(place: HookPlace, hook: HookDeclaration, input: unknown, timeoutMs: number): Promise<HookRun> {
  const project = { CLAUDE_PROJECT_DIR: place.cwd };
  const run = (launch: CommandLaunch) => runHookProcess({ launch, input, cwd: place.cwd, timeoutMs, signal: place.signal });
  if (!hookNeedsSandbox(hook, place.cwd)) {
    const env = { ...withoutProductKeys(process.env, place.exclude ?? []), ...project };
    return { result: await run({ file: '/bin/sh', args: ['-c', hook.command], env }) };
  }
  const state = await place.commands.state();
  if (state.refusal) {
    return {
      refused:
        `was not run: hooks the workspace declares (or that run a workspace script) must run in the OS sandbox (subagents.sandbox.mode is "on"), ` +
        `but it cannot start here: ${state.unavailable}. Install bubblewrap, socat and ripgrep (Linux) to sandbox them, or set ` +
        'subagents.sandbox.mode to "auto" to run them unsandboxed with a notice',
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
  return { result, ...(!state.sandboxed && state.unavailable ? { unsandboxed: state.unavailable } : {}) };
}
