import type { ToolCallNode } from '../../src/shared/runTree';
import { summarizeToolCall, summaryText, type SummaryPart } from '../../src/shared/toolSummary';
import { fileLink, h, setAttr, setClass } from '../kit/dom';
import { ApprovalView } from './approvalView';
import { toolIconClass } from './stateIcons';
import { toolDetailView } from './toolDetailView';
import type { ToolCallContext } from './toolCallContext';

/**
 * One tool call: a tree item whose row is the call's one-line summary ("Read src/invoice.ts lines
 * 1–80", the file a link), opened (Enter, Space, a click) to its full input and output, with the
 * approval prompt below while the call waits for the user. The detail is built only when opened:
 * most calls are never looked at.
 */

// Cloning a prepared subtree is faster than building it element by element.
let prototype: HTMLLIElement | undefined;
function cloneSkeleton(): HTMLLIElement {
  prototype ??= h(
    'li',
    { class: 'tool-call', role: 'treeitem', tabindex: -1, 'aria-expanded': 'false' },
    h('div', { class: 'tool-row' }, h('i', { 'aria-hidden': 'true' }), h('span', { class: 'tool-summary' })),
  );
  return prototype.cloneNode(true) as HTMLLIElement;
}

export class ToolCallView {
  readonly el: HTMLLIElement;
  private readonly icon: HTMLElement;
  private readonly summaryEl: HTMLElement;
  private detailEl: HTMLElement | undefined;
  private approval: ApprovalView | undefined;
  private call: ToolCallNode | undefined;
  private summary = '';
  /** The output blocks the user unfolded ("show all"): a redraw keeps them open. */
  private readonly unfolded = new Set<number>();

  constructor(
    private readonly toolCallId: string,
    private readonly ctx: ToolCallContext,
  ) {
    this.el = cloneSkeleton();
    const row = this.el.firstElementChild as HTMLElement;
    this.icon = row.firstElementChild as HTMLElement;
    this.summaryEl = row.lastElementChild as HTMLElement;
    this.el.dataset.toolCallId = toolCallId;
    if (ctx.ui.isToolOpen(toolCallId)) this.el.setAttribute('aria-expanded', 'true');
  }

  get open(): boolean {
    return this.el.getAttribute('aria-expanded') === 'true';
  }

  setOpen(open: boolean): void {
    setAttr(this.el, 'aria-expanded', String(open));
    this.ctx.ui.setToolOpen(this.toolCallId, open);
    this.renderDetail();
  }

  /** Called with a new object only when the reducer touched this call. */
  update(call: ToolCallNode): void {
    const prev = this.call;
    this.call = call;
    const pending = call.approval !== undefined && call.approval.decision === undefined;
    setAttr(this.el, 'data-tool', call.tool);
    setAttr(this.el, 'data-state', call.state);
    setClass(this.icon, toolIconClass(call.state, pending));
    const parts = summarizeToolCall(call);
    const text = summaryText(parts);
    if (text !== this.summary) {
      this.summary = text;
      this.summaryEl.replaceChildren(...parts.map(partNode));
      this.summaryEl.title = `${call.tool}: ${text}`;
    }
    if (prev && (prev.output !== call.output || prev.state !== call.state || prev.input !== call.input)) this.renderDetail();
    else if (!prev && this.open) this.renderDetail();
    if (call.approval || this.approval) this.updateApproval(call);
  }

  private renderDetail(): void {
    const call = this.call;
    const next = call && this.open ? toolDetailView(call, this.unfolded) : undefined;
    if (this.detailEl && next) this.detailEl.replaceWith(next);
    else if (next) this.el.firstElementChild!.after(next);
    else this.detailEl?.remove();
    this.detailEl = next;
  }

  private updateApproval(call: ToolCallNode): void {
    if (!call.approval) {
      this.approval?.el.remove();
      this.approval = undefined;
      this.el.removeAttribute('data-approval');
      return;
    }
    const state = call.approval.decision ?? 'pending';
    if (this.el.dataset.approval === state && this.approval) return;
    this.el.dataset.approval = state;
    const next = new ApprovalView(call, this.ctx);
    if (this.approval) this.approval.el.replaceWith(next.el);
    else this.el.append(next.el);
    this.approval = next;
  }
}

/** A summary part as DOM: text, a code span, or a link to the file (a mouse shortcut: the tree's
 * keys move between rows, and the opened detail links the same file for the keyboard). */
function partNode(part: SummaryPart): Node {
  if (typeof part === 'string') return document.createTextNode(part);
  if ('code' in part) return h('code', {}, part.code);
  return fileLink(part.file.path, part.file.line, part.file.path, false);
}
