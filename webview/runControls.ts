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
 * and speaks to the host only through `actions`.
 */
export class RunControls {
  readonly el: HTMLElement;
  private readonly stop: HTMLElement;
  private readonly why: HTMLElement;
  private readonly modelNote: HTMLElement;
  private readonly budget = new BudgetBar();
  private readonly steer: SteerBox | undefined;
  private readonly messages: HTMLElement;
  private readonly inspector = new ConfigInspector();
  private node: RunNode | undefined;
  private used = 0;

  constructor(runId: string, node: RunNode, actions: RunControlActions) {
    const top = node.parentRunId === null;
    this.stop = button({
      label: top ? 'Stop all' : 'Stop',
      icon: 'debug-stop',
      appearance: 'secondary',
      className: 'run-stop',
    });
    setAttr(this.stop, 'title', top ? 'Stop this request and every subagent in it' : `Stop ${node.agent} and what it started; its supervisor goes on with what it had done`);
    this.why = button({ label: 'Why this config?', icon: 'info', appearance: 'secondary', className: 'run-why' });
    setAttr(this.why, 'aria-expanded', 'false');
    this.modelNote = h('div', { class: 'model-note', hidden: true });
    this.messages = h('ul', { class: 'run-messages', 'aria-label': 'Messages sent to this run' });
    // The top run is steered by the prompt box (its messages become the next turn).
    this.steer = top ? undefined : new SteerBox(node.agent, (text) => actions.steerRun(runId, text));
    this.el = h(
      'div',
      { class: 'run-controls' },
      this.modelNote,
      h('div', { class: 'run-actions' }, this.stop, this.why),
      this.budget.el,
      this.messages,
      ...(this.steer ? [this.steer.el] : []),
      this.inspector.el,
    );
    this.stop.addEventListener('click', () => {
      // Until the run's end arrives, a second click must not send again.
      setButtonDisabled(this.stop, true);
      actions.cancelRun(runId);
    });
    this.why.addEventListener('click', () => this.toggleInspector());
  }

  /** Renders `node`; `prev` is what was rendered before (undefined: everything is new). */
  render(node: RunNode, prev: RunNode | undefined): void {
    this.node = node;
    const running = node.state === 'running';
    if (prev?.state !== node.state) {
      setHidden(this.stop, !running);
      setButtonDisabled(this.stop, false);
      this.steer?.setOpen(running);
    }
    if (!prev || prev.config !== node.config) {
      setHidden(this.why, !node.config);
      if (node.config && this.inspector.open) this.inspector.show(node.config, this.used);
    }
    if (prev?.modelVia !== node.modelVia || prev?.model !== node.model) {
      setHidden(this.modelNote, !node.modelVia);
      if (node.modelVia) this.modelNote.replaceChildren(codicon('arrow-swap'), h('span', {}, `Model ${node.model}: ${node.modelVia}`));
    }
    if (prev?.messages !== node.messages) this.renderMessages(node);
    if (!prev || prev.config !== node.config) this.budget.update(node.config?.limits.maxTokens, this.used);
  }

  /** The tokens of the run and its subagents so far (the tree view rolls them up). */
  setUsed(tokens: number): void {
    if (tokens === this.used) return;
    this.used = tokens;
    this.budget.update(this.node?.config?.limits.maxTokens, tokens);
    if (this.inspector.open) this.inspector.setUsed(tokens);
  }

  private toggleInspector(): void {
    const config = this.node?.config;
    if (!config) return;
    if (this.inspector.open) this.inspector.hide();
    else this.inspector.show(config, this.used);
    setAttr(this.why, 'aria-expanded', String(this.inspector.open));
  }

  private renderMessages(node: RunNode): void {
    const from = (m: RunMessage) => (m.from === 'user' ? 'You' : (node.agentPath.at(-2) ?? 'Its supervisor'));
    const items = node.messages.map((m) =>
      h('li', { class: `run-message from-${m.from}` }, codicon(m.from === 'user' ? 'account' : 'hubot'), h('span', { class: 'run-message-from' }, `${from(m)}:`), h('span', { class: 'run-message-text' }, m.text)),
    );
    this.messages.replaceChildren(...items);
  }
}
