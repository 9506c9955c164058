import { type RunMessage, type RunNode, type RunTree } from '../../src/shared/runTree';
import { runTotals } from '../../src/shared/runTotals';
import { BudgetBar } from './budgetBar';
import { ConfigInspector } from './configInspector';
import { codicon, h, iconButton, setAttr, setHidden } from '../kit/dom';
import type { RunControlSlots } from '../conversation/runNodeContent';
import { SteerBox } from './steerBox';
import { button } from '../kit/toolkit';

/** What the controls of one run ask the host to do. */
export interface RunControlActions {
  /** Stop this run and its subtree; its parent goes on with what it had done. */
  cancelRun(runId: string): void;
  /** A message the run sees before its next model call. */
  steerRun(runId: string, text: string): void;
}

/**
 * The controls of every run the panel shows, drawn into each run's two slots (RunControlSlots):
 * in its live line, "stalled?" and Stop; under its task, the model it fell back to, "Why this
 * config?" (the inspector), its token budget bar, the messages it was sent and, while it works, a
 * box to send it one. `draw` is the run node's RunNodeContext.runControls; `refresh` gives the
 * budget bars their subtree's tokens after each frame (a child's tokens count against its parent).
 */
export class RunControlsSet {
  private readonly byRun = new Map<string, RunControls>();

  constructor(private readonly actions: RunControlActions) {}

  readonly draw = (node: RunNode, slots: RunControlSlots, prev: RunNode | undefined): void => {
    let controls = this.byRun.get(node.runId);
    // A new view of the run (the thread was shown again): new slots, new controls.
    if (controls?.slots !== slots) this.byRun.set(node.runId, (controls = new RunControls(node.runId, slots, this.actions)));
    controls.render(node, prev);
  };

  /** After a frame's batch: the runs it touched and their ancestors get their subtree's tokens. */
  refresh(tree: RunTree, changed: readonly string[]): void {
    const seen = new Set<string>();
    for (const id of changed) {
      for (let cur: string | null | undefined = id; cur && !seen.has(cur); cur = tree.runs[cur]?.parentRunId) {
        seen.add(cur);
        const controls = this.byRun.get(cur);
        if (!controls) continue;
        if (!controls.slots.controls.isConnected && !controls.slots.actions.isConnected) this.byRun.delete(cur);
        else controls.setUsed(runTotals(tree, cur).usage.totalTokens);
      }
    }
  }
}

/**
 * One run's controls. Each part is built the first time the run has something for it, so the many
 * finished runs of a big thread cost nothing here.
 */
class RunControls {
  private stop: HTMLButtonElement | undefined;
  private stalled: HTMLElement | undefined;
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
    readonly slots: RunControlSlots,
    private readonly actions: RunControlActions,
  ) {}

  render(node: RunNode, prev: RunNode | undefined): void {
    this.node = node;
    const running = node.state === 'running';
    // The top run of a turn is stopped and told things through the prompt box.
    const child = node.parentRunId !== null;
    if (prev?.state !== node.state) {
      if (running && child) this.stopButton(node);
      if (this.stop) {
        setHidden(this.stop, !running);
        this.stop.disabled = false;
      }
      if (running && child) this.steerBox(node).setOpen(true);
      else this.steer?.setOpen(false);
    }
    if (prev?.stalled !== node.stalled && (node.stalled || this.stalled)) {
      this.stalled ??= this.placeIn(
        this.slots.actions,
        h(
          'span',
          { class: 'run-stalled', title: 'Its model has sent nothing for a while (subagents.stallWarningMs); see its warning.' },
          codicon('watch'),
          'stalled?',
        ),
        0,
      );
      setHidden(this.stalled, !node.stalled);
    }
    if (prev?.config !== node.config && node.config) {
      this.whyButton();
      if (this.inspector?.open) this.inspector.show(node.config, this.used);
    }
    if (node.modelVia && (prev?.modelVia !== node.modelVia || prev.model !== node.model)) {
      this.modelNote ??= this.placeIn(this.slots.controls, h('div', { class: 'model-note' }), 0);
      this.modelNote.replaceChildren(codicon('arrow-swap'), h('span', {}, `Model ${node.model}: ${node.modelVia}`));
    }
    if (prev?.messages !== node.messages && node.messages.length > 0) this.renderMessages(node);
    if (prev?.config !== node.config) this.updateBudget();
  }

  /** The tokens of the run and its subagents so far. */
  setUsed(tokens: number): void {
    if (tokens === this.used) return;
    this.used = tokens;
    this.updateBudget();
    if (this.inspector?.open) this.inspector.setUsed(tokens);
  }

  private updateBudget(): void {
    const limit = this.node?.config?.limits.maxTokens;
    if (!limit && !this.budget) return;
    this.budget ??= this.placeIn(this.slots.controls, new BudgetBar(), 2);
    this.budget.update(limit, this.used);
  }

  private stopButton(node: RunNode): HTMLButtonElement {
    if (this.stop) return this.stop;
    const stop = iconButton(
      `Stop ${node.agent} and what it started; its supervisor goes on with what it had done`,
      'debug-stop',
      'run-stop',
    );
    stop.addEventListener('click', () => {
      // Until the run's end arrives, a second click must not send again.
      stop.disabled = true;
      this.actions.cancelRun(this.runId);
    });
    return (this.stop = this.placeIn(this.slots.actions, stop, 1));
  }

  private whyButton(): void {
    if (this.why) return;
    const why = button({ label: 'Why this config?', icon: 'info', appearance: 'secondary', className: 'run-why' });
    setAttr(why, 'aria-expanded', 'false');
    why.addEventListener('click', () => this.toggleInspector());
    this.why = this.placeIn(this.slots.controls, h('div', { class: 'run-why-row' }, why), 1);
  }

  private steerBox(node: RunNode): SteerBox {
    return (this.steer ??= this.placeIn(
      this.slots.controls,
      new SteerBox(node.agent, (text) => this.actions.steerRun(this.runId, text)),
      4,
    ));
  }

  private toggleInspector(): void {
    const config = this.node?.config;
    const button = this.why?.firstElementChild;
    if (!config || !button) return;
    this.inspector ??= this.placeIn(this.slots.controls, new ConfigInspector(), 5);
    if (this.inspector.open) this.inspector.hide();
    else this.inspector.show(config, this.used);
    setAttr(button, 'aria-expanded', String(this.inspector.open));
  }

  private renderMessages(node: RunNode): void {
    this.messages ??= this.placeIn(this.slots.controls, h('ul', { class: 'run-messages', 'aria-label': 'Messages sent to this run' }), 3);
    const from = (m: RunMessage) => (m.from === 'user' ? 'You' : (node.agentPath.at(-2) ?? 'Its supervisor'));
    this.messages.replaceChildren(
      ...node.messages.map((m) =>
        h(
          'li',
          { class: `run-message from-${m.from}` },
          codicon(m.from === 'user' ? 'account' : 'hubot'),
          h('span', { class: 'run-message-from' }, `${from(m)}:`),
          h('span', { class: 'run-message-text' }, m.text),
        ),
      ),
    );
  }

  /** Puts a part in a slot at its rank among the parts built so far: the order stays the same whatever is built first. */
  private placeIn<T extends HTMLElement | { el: HTMLElement }>(slot: HTMLElement, part: T, rank: number): T {
    const el = part instanceof HTMLElement ? part : part.el;
    el.dataset.rank = String(rank);
    const after = [...slot.children].find((c) => Number((c as HTMLElement).dataset.rank) > rank) ?? null;
    slot.insertBefore(el, after);
    return part;
  }
}
