import type { EmitRunEvent } from '../../runEvents';
import type { HookDeclaration } from '../../config/hooks/hookDeclarations';
import type { HookEvent } from '../../config/hooks/hookEvents';
import { hookScripts } from '../../config/hooks/readHooks';
import { scriptsDigest } from '../../config/scripts/workspaceScripts';
import { compileMatcher, type ToolMatcher } from './hookMatcher';
import type { CommandLauncher } from '../sandbox/commandLauncher';
import { runHookIn, USER_HOOKS_OUTSIDE, userHookMayRunOutside } from './hookLaunch';
import { combineVerdicts, hookVerdict, type HookVerdict } from './hookVerdict';
import type { HookProcessResult } from './runHookProcess';

interface CompiledHook {
  hook: HookDeclaration;
  match: ToolMatcher;
  /** A repository hook's scripts as they were when the request started (and consent was given for them). */
  scriptsAtStart?: string;
}

/** The hooks of a request (Session.hooks): the runner, and what to tell the user about the ones that do not run. */
export interface SessionHooks {
  runner: HookRunner;
  notices: readonly string[];
}

/** Where and for whom hooks run: the fields every event's stdin carries, and the node their events go on. */
export interface HookScene {
  /** Claude Code's `session_id`: the thread of the request. */
  sessionId: string;
  cwd: string;
  /** Claude Code's `permission_mode` for our approval mode. */
  permissionMode: string;
  emit: EmitRunEvent;
  signal: AbortSignal;
  /** Inside a subagent: its profile's name (Claude Code's `agent_type`). */
  agentType?: string;
  /** Variables hooks never see besides the product's keys (subagents.commandEnv.exclude). */
  exclude?: readonly string[];
  /** The run's command launcher: hooks run through it, in the OS sandbox (hookLaunch.ts). */
  commands: CommandLauncher;
  /** subagents.sandbox.userHooksOutside (user settings only): the user's own hooks may run outside the sandbox. */
  userHooksOutside?: boolean;
}

export interface HookCall {
  /** What the matcher is tested against: a tool's names, SessionStart's source, a subagent's type. */
  matchOn: readonly string[];
  /** The event's own stdin fields (tool_name, tool_input, prompt…). */
  input: Record<string, unknown>;
  toolCallId?: string;
}

/**
 * The hooks of one request, ready to run: matching hooks of an event run side by side (as Claude
 * Code runs them), each one a `hook.ran` on the node, and their verdicts combine (hookVerdict.ts).
 */
export class HookRunner {
  private readonly byEvent = new Map<HookEvent, CompiledHook[]>();
  /** Matchers refused (a bad or catastrophic regular expression): said once, on the top run. */
  readonly problems: string[] = [];

  private readonly changedSaid = new Set<CompiledHook>();
  private readonly refusedSaid = new Set<HookDeclaration>();
  private unsandboxedSaid = false;
  /** The user's hooks that failed in the sandbox, told once each where the setting is that lets them out. */
  private readonly sandboxFailureSaid = new Set<HookDeclaration>();

  /**
   * `root`: the workspace whose scripts consent was given for. A repository hook's scripts are
   * taken in as they are now, and each run of the hook checks them again: an agent of the request
   * may rewrite one (it is an ordinary workspace file), and the hook would then run code the
   * user never saw. What the scripts source or find on PATH is not covered: that is why such
   * hooks run in the OS sandbox (hookLaunch.ts).
   */
  constructor(hooks: readonly HookDeclaration[], root?: string) {
    for (const hook of hooks) {
      const compiled = compileMatcher(hook.matcher);
      if ('problem' in compiled) {
        this.problems.push(`Hook problem: ${hook.source}: a ${hook.event} hook is not run: ${compiled.problem}.`);
        continue;
      }
      const list = this.byEvent.get(hook.event) ?? [];
      const scriptsAtStart = root && hook.scope === 'repository' ? scriptsDigest(root, hookScripts(root, hook.command)) : undefined;
      list.push({ hook, match: compiled.match, ...(scriptsAtStart !== undefined ? { scriptsAtStart } : {}) });
      this.byEvent.set(hook.event, list);
    }
  }

  has(event: HookEvent): boolean {
    return (this.byEvent.get(event)?.length ?? 0) > 0;
  }

  async run(event: HookEvent, call: HookCall, scene: HookScene): Promise<HookVerdict> {
    const matching = (this.byEvent.get(event) ?? []).filter((h) => h.match(call.matchOn));
    if (matching.length === 0) return { decision: 'none' };
    const input = {
      session_id: scene.sessionId,
      cwd: scene.cwd,
      permission_mode: scene.permissionMode,
      hook_event_name: event,
      ...(scene.agentType ? { agent_type: scene.agentType } : {}),
      ...call.input,
    };
    const verdicts = await Promise.all(
      matching.map((compiled) =>
        this.scriptsChanged(compiled, event, scene) ? { decision: 'none' as const } : this.runOne(event, compiled.hook, input, call, scene),
      ),
    );
    return combineVerdicts(verdicts);
  }

  /** Whether a repository hook's scripts (where it runs) differ from those it was allowed with; said once per hook. */
  private scriptsChanged(compiled: CompiledHook, event: HookEvent, scene: HookScene): boolean {
    if (compiled.scriptsAtStart === undefined) return false;
    const scripts = hookScripts(scene.cwd, compiled.hook.command);
    if (scriptsDigest(scene.cwd, scripts) === compiled.scriptsAtStart) return false;
    if (!this.changedSaid.has(compiled)) {
      this.changedSaid.add(compiled);
      const { hook } = compiled;
      scene.emit({
        kind: 'warning',
        code: 'hooks',
        message:
          `The ${event} hook "${hook.command.slice(0, 120)}" (${hook.source}) was not run: a script it runs (${scripts.join(', ') || 'none found'}) ` +
          'changed after this request started, perhaps by an agent, and your consent covers the scripts as they were. It runs again from the next request, once allowed again.',
      });
    }
    return true;
  }

  private async runOne(event: HookEvent, hook: HookDeclaration, input: unknown, call: HookCall, scene: HookScene): Promise<HookVerdict> {
    const ran = await runHookIn(scene, hook, input, hook.timeoutSec * 1000);
    if ('refused' in ran) {
      if (!this.refusedSaid.has(hook)) {
        this.refusedSaid.add(hook);
        scene.emit({
          kind: 'warning',
          code: 'hooks',
          message: `The ${event} hook "${hook.command.slice(0, 120)}" (${hook.source}) ${ran.refused}.`,
        });
      }
      return { decision: 'none' };
    }
    const { result } = ran;
    if (ran.unsandboxed !== undefined && !this.unsandboxedSaid) {
      this.unsandboxedSaid = true;
      scene.emit({
        kind: 'warning',
        code: 'hooks',
        message:
          `The ${event} hook "${hook.command.slice(0, 120)}" (${hook.source}) ran without the OS sandbox: ${ran.unsandboxed}. ` +
          'Hooks then run as you, with all your access, in the workspace: what they run or load from it (a script, ./node_modules/.bin, ' +
          'a config file), an agent may have written. Install bubblewrap, socat and ripgrep (Linux) to sandbox them, ' +
          'or set subagents.sandbox.mode to "on" to refuse them instead.',
      });
    }
    const verdict = hookVerdict(event, result, hook.timeoutSec);
    const decision = verdict.stop !== undefined ? 'stop' : verdict.decision;
    const note = verdict.warning ?? verdict.stop ?? verdict.reason;
    scene.emit({
      kind: 'hook.ran',
      event,
      command: hook.command,
      source: hook.source,
      exitCode: result.exitCode,
      durationMs: result.durationMs,
      decision,
      ...(note ? { note: note.slice(0, 2000) } : {}),
      ...(call.toolCallId ? { toolCallId: call.toolCallId } : {}),
    });
    if (verdict.warning) {
      scene.emit({
        kind: 'warning',
        code: 'hooks',
        message: `The ${event} hook "${hook.command.slice(0, 120)}" (${hook.source}) ${verdict.warning}.${sandboxFailureHint(this.sandboxFailureSaid, hook, ran, scene.cwd)}`,
      });
    }
    if (verdict.userMessage) {
      scene.emit({
        kind: 'warning',
        code: 'hooks',
        message: `The ${event} hook "${hook.command.slice(0, 120)}" says: ${verdict.userMessage.slice(0, 2000)}`,
      });
    }
    return verdict;
  }
}

/**
 * Said once per hook: a user's own hook that failed (a non-zero exit other than 2, which is a
 * decision) ran in the OS sandbox, which may be why (a write to ~/.claude/logs, a network call), and
 * the setting that lets it run outside. Not for one the setting cannot let out (hookLaunch.ts).
 */
function sandboxFailureHint(
  said: Set<HookDeclaration>,
  hook: HookDeclaration,
  ran: { result: HookProcessResult; sandboxed: boolean },
  cwd: string,
): string {
  const { exitCode } = ran.result;
  if (!ran.sandboxed || exitCode === null || exitCode === 0 || exitCode === 2 || said.has(hook)) return '';
  if (!userHookMayRunOutside(hook, cwd)) return '';
  said.add(hook);
  return (
    ' It is your own hook and ran in the OS sandbox (the workspace writable, the rest read-only, the network closed but to subagents.sandbox.allowedHosts), which may be why. ' +
    `To run your own hooks outside it, as you wrote them, set ${USER_HOOKS_OUTSIDE} to true in your user settings; the tools they start ` +
    '(npx, eslint, python -m) then load what an agent wrote in the workspace, as you.'
  );
}

/** Claude Code's permission_mode for our approval mode. */
export function permissionModeOf(approval: string): string {
  return approval === 'trust' ? 'bypassPermissions' : approval === 'autoEdit' ? 'acceptEdits' : 'default';
}
