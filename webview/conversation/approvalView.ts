import type { ApprovalDecision } from '../../src/shared/events';
import { commandPrefix } from '../../src/shared/commandPrefix';
import type { ApprovalOutcome, ToolCallNode } from '../../src/shared/runTree';
import { codicon, h } from '../kit/dom';
import { button, setButtonDisabled } from '../kit/toolkit';
import { approvalDiffView } from './approvalDiffView';
import type { ToolCallContext } from './toolCallContext';

/**
 * The approval under a tool call that waits for the user: Approve once, Deny and, for a command,
 * Always allow its first words (editable; the host asks for a confirmation, then adds them to
 * subagents.autoApproveCommands); an edit shows its diff. Once answered, the outcome in its place.
 */
export class ApprovalView {
  readonly el: HTMLElement;

  constructor(
    call: ToolCallNode,
    private readonly ctx: ToolCallContext,
  ) {
    const approval = call.approval!;
    this.el =
      approval.decision === undefined
        ? this.prompt(call, approval.approvalId, approval.reason)
        : outcome(approval.decision, approval.cancelled);
  }

  private prompt(call: ToolCallNode, approvalId: string, reason: string | undefined): HTMLElement {
    const approve = button({ label: 'Approve once', icon: 'check', appearance: 'primary', className: 'approve' });
    const deny = button({ label: 'Deny', icon: 'close', appearance: 'secondary', className: 'deny' });
    const buttons = [approve, deny];
    const disableAll = () => {
      // Until the host confirms with approval.resolved, a second click must not send again.
      for (const b of buttons) setButtonDisabled(b, true);
    };
    const decide = (decision: ApprovalDecision) => {
      // Focus moves on before the buttons go (disabled, then replaced by the outcome): never to <body>.
      this.ctx.focusAfterApproval(el);
      disableAll();
      this.ctx.resolveApproval(approvalId, decision);
    };
    approve.addEventListener('click', () => decide('approved'));
    deny.addEventListener('click', () => decide('denied'));
    const actions = h('div', { class: 'approval-actions' }, approve, deny);
    const preview = call.approval?.preview;
    const el = h(
      'div',
      { class: 'approval', role: 'group', 'aria-label': `Approval for ${call.tool}` },
      h('div', { class: 'approval-reason' }, codicon('shield'), h('span', {}, reason ?? `Allow ${call.tool} to run?`)),
      ...(preview ? [approvalDiffView(preview, () => this.ctx.openApprovalDiff(approvalId))] : []),
      actions,
    );
    const command = typeof call.input === 'object' && call.input !== null ? (call.input as Record<string, unknown>).command : undefined;
    if (call.tool === 'run_command' && typeof command === 'string') {
      const always = button({ label: 'Always allow…', appearance: 'secondary', className: 'always-allow' });
      buttons.push(always);
      actions.append(always);
      always.addEventListener('click', () => {
        always.hidden = true;
        el.append(this.alwaysForm(approvalId, commandPrefix(command), disableAll, () => (always.hidden = false)));
        el.querySelector<HTMLInputElement>('.always-prefix')?.focus();
      });
    }
    return el;
  }

  /** The editable prefix and its confirmation. */
  private alwaysForm(approvalId: string, prefix: string, disableAll: () => void, cancelled: () => void): HTMLElement {
    const input = h('input', {
      type: 'text',
      class: 'always-prefix',
      value: prefix,
      'aria-label': 'Commands starting with these words run without asking',
      spellcheck: 'false',
    });
    const save = button({ label: 'Allow always', icon: 'check-all', appearance: 'primary', className: 'always-save' });
    const cancel = button({ label: 'Cancel', appearance: 'secondary', className: 'always-cancel' });
    const form = h(
      'form',
      { class: 'always-form' },
      h('label', { class: 'always-label' }, 'Run without asking every command that starts with:'),
      input,
      h('div', { class: 'approval-actions' }, save, cancel),
    );
    const submit = () => {
      const value = input.value.trim();
      if (!value) return input.focus();
      disableAll();
      setButtonDisabled(save, true);
      setButtonDisabled(cancel, true);
      input.disabled = true;
      this.ctx.alwaysAllow(approvalId, value);
    };
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      submit();
    });
    save.addEventListener('click', submit);
    cancel.addEventListener('click', () => {
      form.remove();
      cancelled();
    });
    return form;
  }
}

const OUTCOMES: Record<ApprovalOutcome, { icon: string; label: string }> = {
  approved: { icon: 'check', label: 'Approved' },
  denied: { icon: 'circle-slash', label: 'Denied' },
  expired: { icon: 'circle-slash', label: 'Not answered: the run ended first' },
};

const CANCELLED: Record<'stopped' | 'reloaded', string> = {
  stopped: 'Cancelled (stopped) before anyone answered',
  reloaded: 'Cancelled (window reloaded) before anyone answered',
};

function outcome(decision: ApprovalOutcome, cancelled: 'stopped' | 'reloaded' | undefined): HTMLElement {
  const shown = cancelled ? { icon: 'circle-slash', label: CANCELLED[cancelled] } : OUTCOMES[decision];
  return h('div', { class: `approval-outcome ${cancelled ? 'cancelled' : decision}` }, codicon(shown.icon), h('span', {}, shown.label));
}
