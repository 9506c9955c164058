import { createHash, randomUUID } from 'node:crypto';
import type { EmitRunEvent } from '../runEvents';
import { WindowClosing, type Approver } from '../ports';
import { decideApproval, decideRead, type ApprovalNeed, type ApprovalSettings } from '../access/approvals/approvalPolicy';
import { protectedReason } from '../access/paths/protectedPaths';
import { changePreview } from '../changes/preview/changePreview';
import type { ToolCallContext } from './toolSpec';

export interface ApprovalGateDeps {
  settings: ApprovalSettings;
  /** Who decides; without one, whatever needs approval is denied. */
  approver: Approver | undefined;
  /** The calling run's emitter: requests appear on that run's own node. */
  emit: EmitRunEvent;
  agent: string;
}

/** `asked`: the user approved it (and saw it); false when it went ahead unasked. */
export type GateResult = { ok: true; asked: boolean } | { ok: false; error: string };

export interface ApprovalGate {
  /**
   * Resolves ok when the action may go ahead: unasked by the policy, or approved by the user for
   * exactly these arguments. `input` is the tool call's input, hashed to bind the approval to it.
   */
  check(tool: string, need: ApprovalNeed, input: unknown, context: ToolCallContext): Promise<GateResult>;
  /** Whether reading this workspace-relative file would ask (a tool that reads many files skips those instead). */
  readAsks(path: string): boolean;
}

/** Arguments that change after approval are asked about again, but not forever. */
const MAX_ASKS = 3;

/** One gate per run: it asks in that run's name and pauses only that run's tool call. */
export function createApprovalGate(deps: ApprovalGateDeps): ApprovalGate {
  return {
    readAsks: (path) => decideRead(path, deps.settings.mode).ask,
    async check(tool, need, input, context) {
      let verdict = await decideApproval(need, deps.settings);
      if (verdict.ask && context.hookAllowed && hookMaySkipAsking(need)) return { ok: true, asked: false };
      // An edit shows what it would change: the diff's first lines on the event, the whole sides for the editor.
      const change = verdict.ask && need.kind === 'edit' && need.change ? { path: need.path, ...need.change } : undefined;
      const preview = change ? changePreview(change.path, change.before, change.after) : undefined;
      for (let asked = 0; verdict.ask; asked++) {
        if (asked === MAX_ASKS) break;
        const approvalId = `ap_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
        // The user is shown a frozen copy: nothing a host does with the request can change what runs.
        const shown = frozenCopy(input);
        const bound = argsHash(shown);
        const { toolCallId, signal } = context;
        deps.emit({
          kind: 'approval.requested',
          approvalId,
          toolCallId,
          tool,
          input: shown,
          reason: verdict.reason,
          ...(preview ? { preview } : {}),
        });
        let decision = deps.approver
          ? await deps.approver
              .request(
                {
                  approvalId,
                  threadId: context.threadId,
                  runId: context.runId,
                  agent: deps.agent,
                  toolCallId,
                  tool,
                  input: shown,
                  reason: verdict.reason,
                  ...(preview && change ? { preview, change } : {}),
                },
                signal,
              )
              .catch(() => 'denied' as const)
          : 'denied';
        // Cut off before anyone answered: no one denied it, and the user is told so.
        const cancelled = signal.aborted ? (signal.reason instanceof WindowClosing ? 'reloaded' : 'stopped') : undefined;
        if (cancelled) decision = 'denied';
        deps.emit({ kind: 'approval.resolved', approvalId, toolCallId, tool, input: shown, decision, ...(cancelled ? { cancelled } : {}) });
        if (cancelled)
          return {
            ok: false,
            error: `${tool} was not run: the run was ${cancelled === 'stopped' ? 'stopped' : 'ended by its window closing'} before anyone answered.`,
          };
        if (decision === 'denied')
          return {
            ok: false,
            error: deniedMessage(tool, verdict.reason, deps.approver !== undefined && deps.approver.canAsk?.() !== false),
          };
        // The approval covers the arguments the user saw; if the call's own input changed meanwhile, that is a new question.
        if (argsHash(input) === bound) return { ok: true, asked: true };
        verdict = { ask: true, reason: `The arguments changed after they were approved. ${verdict.reason}` };
      }
      if (verdict.ask) return { ok: false, error: `${tool} was not run: its arguments kept changing while it waited for approval.` };
      return { ok: true, asked: false };
    },
  };
}

/**
 * A hook's "allow" stands in for the user's yes only where the approval mode alone would ask and
 * the effect stays where the OS sandbox and revert reach: an edit of an ordinary file, a command
 * the sandbox holds. A hook reads the workspace (a helper it sources, the tools it starts), which
 * an agent of the request may have written, so its verdict must not open a way out: installs,
 * another program's tool (MCP, the editor's, an external agent's request), fetches, protected and
 * secret files, workspace code and unsandboxed commands still ask.
 */
function hookMaySkipAsking(need: ApprovalNeed): boolean {
  switch (need.kind) {
    case 'edit':
      return protectedReason(need.path) === undefined;
    case 'command':
      return need.sandboxed === true;
    default:
      return false;
  }
}

/**
 * What the model reads when the call did not go ahead: a person's denial only when a person was
 * asked; otherwise the policy's refusal, in its own words (which part, and how it is allowed).
 */
function deniedMessage(tool: string, reason: string, personAsked: boolean): string {
  const advice = 'Nothing was done. Do not retry it or work around it; if it is needed, say so in your answer and explain why.';
  if (personAsked) return `The user denied this ${tool} call (${reason}) ${advice}`;
  return `${tool} was not run: ${reason} It needs approval and no one is here to give it. ${advice}`;
}

/** A deep copy that cannot be changed: tool inputs are JSON, so structuredClone copies them whole. */
function frozenCopy<T>(value: T): T {
  const copy = structuredClone(value);
  const freeze = (v: unknown): void => {
    if (v && typeof v === 'object' && !Object.isFrozen(v)) {
      Object.freeze(v);
      for (const inner of Object.values(v)) freeze(inner);
    }
  };
  freeze(copy);
  return copy;
}

/** A stable digest of a JSON value: object keys sorted, so equal arguments hash equally. */
export function argsHash(value: unknown): string {
  return createHash('sha256').update(stableJson(value)).digest('hex');
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}
