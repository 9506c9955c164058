import { capErrorText } from '../../../shared/errorText';
import { claudeToolCall } from '../../access/hooks/claudeToolInput';
import type { HookRunner, HookScene } from '../../access/hooks/hookRunner';
import type { Redactor } from '../../access/secrets/redactor';
import type { ApprovalGate } from '../approvalGate';
import type { AnyToolSpec, ToolCallContext } from '../toolSpec';

export interface HookedToolDeps {
  runner: HookRunner;
  scene: HookScene;
  gate: ApprovalGate;
  /** The hook's words reach the model without the keys. */
  redactor: Redactor;
  /** `continue: false`: the run stops after this call, with the hook's reason. */
  stopRun(reason: string): void;
}

/**
 * The tool with PreToolUse and PostToolUse hooks around it. A deny (exit 2, or
 * `permissionDecision: "deny"`) returns the hook's reason and never runs the tool; an "ask" asks the
 * user in every mode; an "allow" only spares the user our own asking where the mode alone asks
 * (approvalGate.ts): the tool's own protected-file and confinement checks run all the same.
 */
export function hookedTool(spec: AnyToolSpec, deps: HookedToolDeps): AnyToolSpec {
  const { runner, scene } = deps;
  if (!runner.has('PreToolUse') && !runner.has('PostToolUse')) return spec;
  return {
    ...spec,
    execute: async (input, context) => {
      const call = claudeToolCall(spec.name, input, scene.cwd);
      const about = { tool_name: call.toolName, tool_input: call.toolInput, tool_use_id: context.toolCallId };
      // What a hook says reaches the model redacted and capped, as any error does.
      const say = (text: string) => capErrorText(deps.redactor.redactText(text));
      let running: ToolCallContext = context;
      const notes: string[] = [];
      const pre = await runner.run('PreToolUse', { matchOn: call.names, input: about, toolCallId: context.toolCallId }, scene);
      if (pre.stop !== undefined) {
        deps.stopRun(pre.stop);
        return { error: say(`${spec.name} was not run: a PreToolUse hook stopped the run: ${pre.stop}`) };
      }
      if (pre.decision === 'deny' || pre.decision === 'block')
        return { error: say(`${spec.name} was not run: a PreToolUse hook blocked it: ${pre.reason ?? 'no reason given'}`) };
      if (pre.decision === 'ask') {
        const reason = `A PreToolUse hook asks for your approval: ${pre.reason ?? 'no reason given'}`;
        const asked = await deps.gate.check(spec.name, { kind: 'workspaceCode', reason }, input, context);
        if (!asked.ok) return { error: asked.error };
      }
      if (pre.decision === 'allow') running = { ...context, hookAllowed: true };
      if (pre.additionalContext) notes.push(pre.additionalContext);
      const result = await spec.execute(input, running);
      const post = await runner.run(
        'PostToolUse',
        { matchOn: call.names, input: { ...about, tool_response: result }, toolCallId: context.toolCallId },
        scene,
      );
      if (post.decision === 'block' || post.decision === 'deny') notes.push(`A PostToolUse hook says: ${post.reason ?? 'no reason given'}`);
      if (post.additionalContext) notes.push(post.additionalContext);
      if (post.stop !== undefined) deps.stopRun(post.stop);
      return notes.length === 0 ? result : withNotes(result, say(notes.join('\n')));
    },
  };
}

/** The result with the hooks' words beside it, where the model reads them. */
function withNotes(result: unknown, notes: string): unknown {
  if (typeof result === 'object' && result !== null && !Array.isArray(result)) return { ...result, hookContext: notes };
  return { result, hookContext: notes };
}
