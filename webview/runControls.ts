import type { RunMessage, RunNode } from '../src/shared/runTree';
import { BudgetBar } from './budgetBar';
import { ConfigInspector } from './configInspector';
import { codicon, h, setAttr, setHidden } from './dom';
import { SteerBox } from './steerBox';
import { button, setButtonDisabled } from './toolkit';

/** What the controls of one run ask the host to do. */
export interface RunControlActions {
  /** Stop this run and its subtree; its parent goes on with what it had done. */
  cancelRun(runId: string): void;
  /** A message the run sees before its next model call. */
  steerRun(runId: string, text: string): void;
}

/**
 * The controls on one run's node: Stop (that run and its subtree only), "Why this config?" (the
 * inspector), the model it fell back to when it did, its token budget bar, a message box while it
 * works, and the messages it was sent. Self-contained: it gets the node and its subtree's tokens,
 * and speaks to the host only through `actions`. Each part is built the first time the node has
 * something for it, so the many finished nodes of a big thread cost a single empty element.
 */
export class RunControls {
  readonly el: HTMLElement;
  private actionsRow: HTMLElement | undefined;
  private stop: HTMLElement | undefined;
  private why: HTMLElement | undefined;
  private modelNote: HTMLElement | undefined;
  private budget: BudgetBar | undefined;
  private steer: SteerBox | undefined;
  private messages: HTMLElement | undefined;
  private inspector: ConfigInspector | undefined;
  private node: RunNode | undefined;
  private used = 0;

  constructor(
    private readonly runId: string,
    private readonly actions: RunControlActions,
  ) {
    this.el = h('div', { class: 'run-controls' });
  }

  /** Renders `node`; `prev` is what was rendered before (undefined: everything is new). */
  render(node: RunNode, prev: RunNode | undefined): void {
    this.node = node;
    const running = node.state === 'running';
    const top = node.parentRunId === null;
    if (prev?.state !== node.state) {
      if (running) this.stopButton(node);
      if (this.stop) {
        setHidden(this.stop, !running);
        setButtonDisabled(this.stop, false);
      }
      // The top run is told things through the prompt box (they become its next turn).
      if (running && !top) this.steerBox(node).setOpen(true);
      else this.steer?.setOpen(false);
    }
    if (prev?.config !== node.config && node.config) {
      this.whyButton();
      if (this.inspector?.open) this.inspector.show(node.config, this.used);
    }
    if (node.modelVia && (prev?.modelVia !== node.modelVia || prev.model !== node.model)) {
      this.modelNote ??= this.place(h('div', { class: 'model-note' }), 0);
      this.modelNote.replaceChildren(codicon('arrow-swap'), h('span', {}, `Model ${node.model}: ${node.modelVia}`));
    }
    if (prev?.messages !== node.messages && node.messages.length > 0) this.renderMessages(node);
    if (prev?.config !== node.config) this.updateBudget();
  }

  /** The tokens of the run and its subagents so far (the tree view rolls them up). */
  setUsed(tokens: number): void {
    if (tokens === this.used) return;
    this.used = tokens;
    this.updateBudget();
    if (this.inspector?.open) this.inspector.setUsed(tokens);
  }

  private updateBudget(): void {
    const limit = this.node?.config?.limits.maxTokens;
    if (!limit && !this.budget) return;
    this.budget ??= this.place(new BudgetBar(), 2);
    this.budget.update(limit, this.used);
  }

  private stopButton(node: RunNode): HTMLElement {
    if (this.stop) return this.stop;
    const top = node.parentRunId === null;
    const stop = button({ label: top ? 'Stop all' : 'Stop', icon: 'debug-stop', appearance: 'secondary', className: 'run-stop' });
    setAttr(stop, 'title', top ? 'Stop this request and every subagent in it' : `Stop ${node.agent} and what it started; its supervisor goes on with what it had done`);
    stop.addEventListener('click', () => {
      // Until the run's end arrives, a second click must not send again.
      setButtonDisabled(stop, true);
      this.actions.cancelRun(this.runId);
    });
    this.actionRow().prepend(stop);
    return (this.stop = stop);
  }

  private whyButton(): void {
    if (this.why) return;
    const why = button({ label: 'Why this config?', icon: 'info', appearance: 'secondary', className: 'run-why' });
    setAttr(why, 'aria-expanded', 'false');
    why.addEventListener('click', () => this.toggleInspector());
    this.actionRow().append(why);
    this.why = why;
  }

  private steerBox(node: RunNode): SteerBox {
    return (this.steer ??= this.place(new SteerBox(node.agent, (text) => this.actions.steerRun(this.runId, text)), 4));
  }

  private actionRow(): HTMLElement {
    return (this.actionsRow ??= this.place(h('div', { class: 'run-actions' }), 1));
  }

  private toggleInspector(): void {
    const config = this.node?.config;
    if (!config || !this.why) return;
    this.inspector ??= this.place(new ConfigInspector(), 5);
    if (this.inspector.open) this.inspector.hide();
    else this.inspector.show(config, this.used);
    setAttr(this.why, 'aria-expanded', String(this.inspector.open));
  }

  private renderMessages(node: RunNode): void {
    this.messages ??= this.place(h('ul', { class: 'run-messages', 'aria-label': 'Messages sent to this run' }), 3);
    const from = (m: RunMessage) => (m.from === 'user' ? 'You' : (node.agentPath.at(-2) ?? 'Its supervisor'));
    this.messages.replaceChildren(
      ...node.messages.map((m) =>
        h('li', { class: `run-message from-${m.from}` }, codicon(m.from === 'user' ? 'account' : 'hubot'), h('span', { class: 'run-message-from' }, `${from(m)}:`), h('span', { class: 'run-message-text' }, m.text)),
      ),
    );
  }

  /**
   * Puts a part in its place among those built so far. The order is fixed: model note, actions,
   * budget, messages, steer box, inspector; `slot` is the part's rank in it.
   */
  private place<T extends HTMLElement | { el: HTMLElement }>(part: T, slot: number): T {
    const el = part instanceof HTMLElement ? part : part.el;
    el.dataset.slot = String(slot);
    const after = [...this.el.children].find((c) => Number((c as HTMLElement).dataset.slot) > slot) ?? null;
    this.el.insertBefore(el, after);
    return part;
  }
}
