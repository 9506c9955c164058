import { z } from 'zod';
import type { HookEvent } from '../../config/hooks/hookEvents';
import type { HookProcessResult } from './runHookProcess';

/**
 * What a hook decided, read as Claude Code reads it. Exit 0: go on, and its stdout JSON is honoured;
 * exit 2: block (PreToolUse: the tool does not run; its stderr is what the model is told); any other
 * exit, a timeout or a start failure: a warning, and the run goes on.
 */
export interface HookVerdict {
  decision: 'none' | 'allow' | 'deny' | 'ask' | 'block';
  /** For the model (deny, block) or the user (ask). */
  reason?: string;
  /** Text added to what the model reads (`additionalContext`, or a UserPromptSubmit/SessionStart hook's plain stdout). */
  additionalContext?: string;
  /** `continue: false`: the run stops, with this reason (`stopReason`). */
  stop?: string;
  /** What went wrong with the hook itself (not a decision). */
  warning?: string;
  /** `suppressOutput`: its stdout is not shown in the run's events. */
  suppressOutput?: boolean;
  /** `systemMessage`: a message for the user (a warning on the node). */
  userMessage?: string;
}

const outputSchema = z
  .object({
    continue: z.boolean().optional(),
    stopReason: z.string().optional(),
    suppressOutput: z.boolean().optional(),
    systemMessage: z.string().optional(),
    decision: z.enum(['block', 'approve', 'allow', 'deny', 'ask']).optional(),
    reason: z.string().optional(),
    hookSpecificOutput: z
      .object({
        permissionDecision: z.enum(['allow', 'deny', 'ask']).optional(),
        permissionDecisionReason: z.string().optional(),
        additionalContext: z.string().optional(),
      })
      .loose()
      .optional(),
  })
  .loose();

/** Events whose plain (non-JSON) stdout on exit 0 is context for the model, as in Claude Code. */
const PLAIN_CONTEXT: readonly HookEvent[] = ['UserPromptSubmit', 'SessionStart'];

export function hookVerdict(event: HookEvent, result: HookProcessResult, timeoutSec: number): HookVerdict {
  const cut = result.truncated ? ' (its output was cut at 64 KB)' : '';
  if (result.startError) return { decision: 'none', warning: `could not start (${result.startError})` };
  if (result.timedOut) return { decision: 'none', warning: `ran past its timeout of ${timeoutSec} s and was stopped; the run went on` };
  const stderr = result.stderr.trim();
  if (result.exitCode === 2) {
    const reason = stderr || `A ${event} hook blocked this (exit 2) without saying why.`;
    return { decision: event === 'PreToolUse' ? 'deny' : 'block', reason: reason + cut };
  }
  if (result.exitCode !== 0)
    return { decision: 'none', warning: `exited with ${result.exitCode}${stderr ? `: ${stderr.slice(0, 500)}` : ''}` };
  const stdout = result.stdout.trim();
  if (!stdout.startsWith('{')) {
    return stdout && PLAIN_CONTEXT.includes(event) ? { decision: 'none', additionalContext: stdout + cut } : { decision: 'none' };
  }
  let json: unknown;
  try {
    json = JSON.parse(stdout);
  } catch {
    return { decision: 'none', warning: `printed output that starts like JSON but is not${cut}; it was ignored` };
  }
  const parsed = outputSchema.safeParse(json);
  if (!parsed.success)
    return { decision: 'none', warning: `printed JSON that is not a hook's answer (${parsed.error.issues[0]?.message}); it was ignored` };
  return verdictOf(event, parsed.data);
}

function verdictOf(event: HookEvent, out: z.infer<typeof outputSchema>): HookVerdict {
  const specific = out.hookSpecificOutput;
  const verdict: HookVerdict = { decision: 'none' };
  if (event === 'PreToolUse') {
    // `decision: approve|block` is Claude Code's older spelling of allow|deny.
    const legacy = out.decision === 'approve' ? 'allow' : out.decision === 'block' ? 'deny' : out.decision;
    const decision = specific?.permissionDecision ?? legacy;
    if (decision) verdict.decision = decision;
    const reason = specific?.permissionDecisionReason ?? out.reason;
    if (reason) verdict.reason = reason;
  } else if (out.decision === 'block') {
    verdict.decision = 'block';
    verdict.reason = out.reason ?? `A ${event} hook blocked this without saying why.`;
  }
  if (specific?.additionalContext) verdict.additionalContext = specific.additionalContext;
  if (out.continue === false) verdict.stop = out.stopReason ?? `A ${event} hook stopped the run.`;
  if (out.suppressOutput) verdict.suppressOutput = true;
  if (out.systemMessage) verdict.userMessage = out.systemMessage;
  return verdict;
}

const RANK = { none: 0, allow: 1, ask: 2, block: 3, deny: 4 } as const;

/** Several hooks on one event: the strictest decision wins (deny > block > ask > allow), reasons and context are joined. */
export function combineVerdicts(verdicts: readonly HookVerdict[]): HookVerdict {
  const strictest = verdicts.reduce<HookVerdict['decision']>((d, v) => (RANK[v.decision] > RANK[d] ? v.decision : d), 'none');
  const join = (parts: (string | undefined)[]) => parts.filter((p): p is string => !!p).join('\n') || undefined;
  const reason = join(verdicts.filter((v) => v.decision === strictest).map((v) => v.reason));
  const context = join(verdicts.map((v) => v.additionalContext));
  const stop = verdicts.find((v) => v.stop !== undefined)?.stop;
  return {
    decision: strictest,
    ...(reason ? { reason } : {}),
    ...(context ? { additionalContext: context } : {}),
    ...(stop !== undefined ? { stop } : {}),
  };
}
