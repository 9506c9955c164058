import type { ChangePreview } from './events';
import { oneLine } from './oneLine';

/** What a waiting approval is about, as the notification and the status bar read it. */
export interface ApprovalAbout {
  agent: string;
  tool: string;
  input: unknown;
  /** Why it needs approval, as the policy said it ("Writes src/a.ts.", "Protected file: .env."). */
  reason?: string;
  /** For an edit: its diff's counts (approval.requested's preview). */
  preview?: Pick<ChangePreview, 'added' | 'removed' | 'created'>;
}

/** What an approval asks, in a few words: "run `npm test`", "edit src/invoice.ts". */
export function approvalAction(approval: Pick<ApprovalAbout, 'tool' | 'input'>): string {
  const input = (approval.input ?? {}) as Record<string, unknown>;
  const text = (v: unknown, max = 80) => (typeof v === 'string' ? oneLine(v, max) : undefined);
  switch (approval.tool) {
    case 'run_command':
      return `run \`${text(input.command) ?? 'a command'}\``;
    case 'write_file':
      return `write ${text(input.path) ?? 'a file'}`;
    case 'edit_file':
      return `edit ${text(input.path) ?? 'a file'}`;
    default:
      return `use ${approval.tool}`;
  }
}

/**
 * The notification of an approval, one line: who wants what, an edit's counts, and the policy's
 * reason only when it says more than the action ("Writes src/a.ts." after "edit src/a.ts" does not):
 * "Subagents: fixer wants to edit src/invoice.ts (+3 −1)".
 */
export function approvalNotice(approval: ApprovalAbout): string {
  const action = approvalAction(approval);
  const p = approval.preview;
  const counts = p ? ` (${p.created ? 'new file, ' : ''}+${p.added} −${p.removed})` : '';
  const reason = approval.reason && !restates(approval.reason, action) ? ` ${approval.reason}` : '';
  return oneLine(`Subagents: ${approval.agent} wants to ${action}${counts}.${reason}`, 300);
}

/** The reason only names again what the action names: its verb's object ("Writes src/a.ts." → "src/a.ts") is in the action. */
function restates(reason: string, action: string): boolean {
  const object = /^\s*\w+\s+(.+?)\.?\s*$/s.exec(reason)?.[1];
  return object !== undefined && action.includes(object);
}
