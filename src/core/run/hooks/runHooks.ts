import type { HookScene, SessionHooks } from '../../access/hooks/hookRunner';
import type { CommandLauncher } from '../../access/sandbox/commandLauncher';
import { permissionModeOf } from '../../access/hooks/hookRunner';
import type { EmitRunEvent } from '../../runEvents';
import type { RunHandle } from '../delegation/runHandle';
import type { Session } from '../delegation/session';

/** How the hooks before a run's first turn came out. */
export interface OpeningHooks {
  /** A UserPromptSubmit hook blocked the prompt: the run does not start work; this is why. */
  blocked?: string;
  /** `continue: false`. */
  stop?: string;
  /** Text the model reads with the task (additionalContext, a hook's plain stdout). */
  context: string[];
}

/** The scene of one run's hooks: its thread, folder, approval mode, node, and the launcher of its commands. */
export function hookScene(session: Session, run: RunHandle, emit: EmitRunEvent, commands: CommandLauncher): HookScene {
  return {
    commands,
    sessionId: run.rootThreadId,
    cwd: session.workspace.root,
    permissionMode: permissionModeOf(session.settings.approval),
    emit,
    signal: run.signal,
    ...(run.depth > 0 ? { agentType: run.agent } : {}),
    exclude: session.settings['commandEnv.exclude'],
    userHooksOutside: session.settings['sandbox.userHooksOutside'],
  };
}

/**
 * Before the first turn. The top run: its notices, SessionStart (`source` startup or resume, the
 * matcher tested against it) and UserPromptSubmit (`prompt`). A subagent: SubagentStart
 * (`agent_id`, `agent_type`, the matcher tested against the type).
 */
export async function openingHooks(
  hooks: SessionHooks,
  scene: HookScene,
  run: RunHandle,
  task: string,
  resumed: boolean,
): Promise<OpeningHooks> {
  const out: OpeningHooks = { context: [] };
  const take = (v: { additionalContext?: string; stop?: string }) => {
    if (v.additionalContext) out.context.push(v.additionalContext);
    if (v.stop !== undefined) out.stop ??= v.stop;
  };
  if (run.depth > 0) {
    take(await hooks.runner.run('SubagentStart', { matchOn: [run.agent], input: { agent_id: run.runId, agent_type: run.agent } }, scene));
    return out;
  }
  for (const notice of hooks.notices) scene.emit({ kind: 'warning', code: 'hooks', message: notice });
  const source = resumed ? 'resume' : 'startup';
  take(await hooks.runner.run('SessionStart', { matchOn: [source], input: { source } }, scene));
  if (out.stop !== undefined) return out;
  const prompt = await hooks.runner.run('UserPromptSubmit', { matchOn: [], input: { prompt: task } }, scene);
  take(prompt);
  if (prompt.decision === 'block' || prompt.decision === 'deny')
    out.blocked = prompt.reason ?? 'A UserPromptSubmit hook blocked the prompt.';
  return out;
}

/**
 * When the run would end: Stop (the top run) or SubagentStop. A block (exit 2, `decision: "block"`)
 * returns the reason, which the model is given as a new turn; `stop_hook_active` tells the hook it
 * is already continuing because of a stop hook, and after a few the run ends regardless.
 */
export async function stopHooks(
  hooks: SessionHooks,
  scene: HookScene,
  run: RunHandle,
  active: boolean,
): Promise<{ continueWith?: string; stop?: string }> {
  const event = run.depth > 0 ? 'SubagentStop' : 'Stop';
  const input = { stop_hook_active: active, ...(run.depth > 0 ? { agent_id: run.runId, agent_type: run.agent } : {}) };
  const v = await hooks.runner.run(event, { matchOn: run.depth > 0 ? [run.agent] : [], input }, scene);
  if (v.stop !== undefined) return { stop: v.stop };
  if (v.decision === 'block' || v.decision === 'deny') return { continueWith: v.reason ?? `A ${event} hook asked the agent to go on.` };
  return {};
}

/** A Stop hook may send the model back to work at most this many times in one run. */
export const MAX_STOP_CONTINUATIONS = 3;
