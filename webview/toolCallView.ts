import type { ApprovalDecision } from '../src/shared/events';
import type { ApprovalOutcome, ToolCallNode } from '../src/shared/runTree';
import { codicon, h, setAttr, setClass, setText } from './dom';
import { toolIconClass } from './stateIcons';
import { button, setButtonDisabled } from './toolkit';
import { formatOutput, summarizeInput } from './toolText';
import type { UiState } from './uiState';

/**
 * One tool call inside a run node: state icon, tool name, a one-line input summary, the output
 * (built only when the row is opened: most outputs are never looked at), and the approval prompt
 * while the call waits for the user. The row is a focusable button-like element that the tree's
 * arrow keys visit; the output toggles with a click, Enter or Space (see treeKeyboard.ts).
 */

export interface ToolCallContext {
  ui: UiState;
  resolveApproval(approvalId: string, decision: ApprovalDecision): void;
}

// Cloning a prepared subtree is faster than building it element by element, and a big tree has
// thousands of these: kept to five elements, with no <details> (its UA shadow tree is costly).
let prototype: HTMLDivElement | undefined;
function cloneSkeleton(): HTMLDivElement {
  prototype ??= h(
    'div',
    { class: 'tool-call' },
    h('div', { class: 'tool-row', role: 'button', tabindex: -1, 'aria-expanded': 'false' }, h('i', { 'aria-hidden': 'true' }), h('span', { class: 'tool-name' }), h('span', { class: 'tool-input' })),
  );
  return prototype.cloneNode(true) as HTMLDivElement;
}

export class ToolCallView {
  readonly el: HTMLDivElement;
  readonly row: HTMLElement;
  private readonly icon: HTMLElement;
  private readonly nameEl: HTMLElement;
  private readonly inputEl: HTMLElement;
  private outputEl: HTMLElement | undefined;
  private approvalEl: HTMLElement | undefined;
  private call: ToolCallNode | undefined;
  private outputRendered = false;

  constructor(
    private readonly toolCallId: string,
    private readonly ctx: ToolCallContext,
  ) {
    this.el = cloneSkeleton();
    this.row = this.el.firstElementChild as HTMLElement;
    this.icon = this.row.firstElementChild as HTMLElement;
    this.nameEl = this.icon.nextElementSibling as HTMLElement;
    this.inputEl = this.nameEl.nextElementSibling as HTMLElement;
    this.el.dataset.toolCallId = toolCallId;
    if (ctx.ui.isToolOpen(toolCallId)) this.row.setAttribute('aria-expanded', 'true');
  }

  get open(): boolean {
    return this.row.getAttribute('aria-expanded') === 'true';
  }

  setOpen(open: boolean): void {
    setAttr(this.row, 'aria-expanded', String(open));
    this.ctx.ui.setToolOpen(this.toolCallId, open);
    if (open) this.renderOutput();
    else this.outputEl?.remove();
  }

  /** Called with a new object only when the reducer touched this call. */
  update(call: ToolCallNode): void {
    const prev = this.call;
    this.call = call;
    const pending = call.approval !== undefined && call.approval.decision === undefined;
    setAttr(this.el, 'data-tool', call.tool);
    setAttr(this.el, 'data-state', call.state);
    setClass(this.icon, toolIconClass(call.state, pending));
    setText(this.nameEl, call.tool);
    if (prev?.input !== call.input) setText(this.inputEl, summarizeInput(call.input));
    if (prev?.output !== call.output || prev?.state !== call.state) {
      this.outputRendered = false;
      if (this.open) this.renderOutput();
    }
    if (call.approval || this.approvalEl) this.updateApproval(call);
  }

  private renderOutput(): void {
    const call = this.call;
    if (!call) return;
    if (!this.outputEl) this.outputEl = h('pre', { class: 'tool-output' });
    if (!this.outputEl.isConnected) this.row.after(this.outputEl);
    if (this.outputRendered) return;
    this.outputRendered = true;
    const text = call.output === undefined ? (call.state === 'running' ? 'Running…' : 'No output.') : formatOutput(call.output);
    setText(this.outputEl, text);
    setClass(this.outputEl, call.state === 'error' ? 'tool-output tool-output-error' : 'tool-output');
  }

  private updateApproval(call: ToolCallNode): void {
    const approval = call.approval;
    if (!approval) {
      this.approvalEl?.remove();
      this.approvalEl = undefined;
      this.el.removeAttribute('data-approval');
      return;
    }
    const state = approval.decision ?? 'pending';
    if (this.el.dataset.approval === state && this.approvalEl) return;
    this.el.dataset.approval = state;
    const next = state === 'pending' ? this.approvalPrompt(approval.approvalId, call.tool, approval.reason) : this.approvalOutcome(state);
    if (this.approvalEl) this.approvalEl.replaceWith(next);
    else this.el.append(next);
    this.approvalEl = next;
  }

  private approvalPrompt(approvalId: string, tool: string, reason: string | undefined): HTMLElement {
    const approve = button({ label: 'Approve once', icon: 'check', appearance: 'primary', className: 'approve' });
    const deny = button({ label: 'Deny', icon: 'close', appearance: 'secondary', className: 'deny' });
    const decide = (decision: ApprovalDecision) => {
      // Until the host confirms with approval.resolved, a second click must not send again.
      setButtonDisabled(approve, true);
      setButtonDisabled(deny, true);
      this.ctx.resolveApproval(approvalId, decision);
    };
    approve.addEventListener('click', () => decide('approved'));
    deny.addEventListener('click', () => decide('denied'));
    return h(
      'div',
      { class: 'approval', role: 'group', 'aria-label': `Approval for ${tool}` },
      h('div', { class: 'approval-reason' }, codicon('shield'), h('span', {}, reason ?? `Allow ${tool} to run?`)),
      h('div', { class: 'approval-actions' }, approve, deny),
    );
  }

  private approvalOutcome(outcome: ApprovalOutcome): HTMLElement {
    const shown = OUTCOMES[outcome];
    return h('div', { class: `approval-outcome ${outcome}` }, codicon(shown.icon), h('span', {}, shown.label));
  }
}

const OUTCOMES: Record<ApprovalOutcome, { icon: string; label: string }> = {
  approved: { icon: 'check', label: 'Approved' },
  denied: { icon: 'circle-slash', label: 'Denied' },
  expired: { icon: 'circle-slash', label: 'Not answered: the run ended first' },
};
