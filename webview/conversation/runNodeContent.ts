import { retryText } from '../../src/shared/retryText';
import { type RunNode } from '../../src/shared/runTree';
import { failedToolCalls } from '../../src/shared/runTotals';
import { codicon, h, setAttr, setClass, setText } from '../kit/dom';
import { LazyMarkdown } from '../markdown/lazyMarkdown';
import type { RenderQueue } from '../kit/renderQueue';
import { HookRunsView } from './hookRunsView';
import { runIconClass, runStateLabel } from './stateIcons';
import { renderTodoList } from './todoListView';
import type { ToolCallContext } from './toolCallContext';
import type { VisibilityWatcher } from '../kit/visibility';

/**
 * What a run node shows once it is near the viewport. Collapsed, its one live line: state icon,
 * agent, what it is doing now ("reading src/invoice.ts"), elapsed time and tokens. Expanded, also
 * its task and controls above its items (tool calls and child runs, in the node's group) and its
 * streamed text, error and warnings below them.
 *
 * A run's own controls have two places, filled through `RunNodeContext.runControls`: `actions`, at
 * the end of the live line (always shown: a Stop), and `controls`, under the task (shown while
 * expanded: a budget bar, a steer box). Both stay empty, and take no room, until a feature fills them.
 */

/** Where a run's controls go, and what they are drawn from (see RunNodeContent). */
export interface RunControlSlots {
  /** In the live line, before the stats. */
  actions: HTMLElement;
  /** Under the task, while the node is expanded. */
  controls: HTMLElement;
}

export interface RunNodeContext extends ToolCallContext {
  watcher: VisibilityWatcher;
  markdown: RenderQueue;
  /** Draws a run's controls into its slots; called when the node is built and on every change of it. */
  runControls?: (node: RunNode, slots: RunControlSlots, prev: RunNode | undefined) => void;
}

let nextId = 0;
let headerPrototype: HTMLElement | undefined;
let bodyPrototype: HTMLElement | undefined;
let resultPrototype: HTMLElement | undefined;

// Cloning prepared subtrees is faster than building them element by element.
function headerSkeleton(): HTMLElement {
  headerPrototype ??= h(
    'div',
    { class: 'run-row' },
    codicon('chevron-right', 'twistie'),
    h('i', { 'aria-hidden': 'true' }),
    h('span', { class: 'run-agent' }),
    h('span', { class: 'run-state' }),
    h('span', { class: 'run-activity' }),
    h('span', { class: 'run-actions' }),
    h('span', { class: 'run-stats' }),
  );
  return headerPrototype.cloneNode(true) as HTMLElement;
}

function bodySkeleton(): HTMLElement {
  bodyPrototype ??= h('div', { class: 'run-body' }, h('div', { class: 'run-task' }), h('div', { class: 'run-controls' }));
  return bodyPrototype.cloneNode(true) as HTMLElement;
}

function resultSkeleton(): HTMLElement {
  resultPrototype ??= h(
    'div',
    { class: 'run-result' },
    h('details', { class: 'run-reasoning', hidden: true }, h('summary', {}, 'Thinking'), h('div', { class: 'run-reasoning-text' })),
    h('div', { class: 'run-output markdown' }),
    h('div', { class: 'run-error' }),
    h('ul', { class: 'run-warnings' }),
  );
  return resultPrototype.cloneNode(true) as HTMLElement;
}

export class RunNodeContent {
  readonly body: HTMLElement;
  readonly result: HTMLElement;
  readonly slots: RunControlSlots;
  readonly rowId: string;
  private readonly icon: HTMLElement;
  private readonly agentEl: HTMLElement;
  private readonly stateEl: HTMLElement;
  private readonly activityEl: HTMLElement;
  private readonly statsEl: HTMLElement;
  private readonly taskEl: HTMLElement;
  private readonly reasoningEl: HTMLDetailsElement;
  private readonly output: LazyMarkdown;
  private readonly errorEl: HTMLElement;
  private readonly warningsEl: HTMLElement;
  private readonly hookRuns = new HookRunsView();

  /** Fills `header` (the node's empty placeholder) and builds the body and the result. */
  constructor(
    header: HTMLElement,
    private readonly ctx: RunNodeContext,
  ) {
    const row = headerSkeleton();
    header.append(row);
    this.icon = row.children[1] as HTMLElement;
    this.agentEl = row.children[2] as HTMLElement;
    this.stateEl = row.children[3] as HTMLElement;
    this.activityEl = row.children[4] as HTMLElement;
    this.statsEl = row.children[6] as HTMLElement;
    this.body = bodySkeleton();
    this.taskEl = this.body.firstElementChild as HTMLElement;
    this.slots = { actions: row.children[5] as HTMLElement, controls: this.body.lastElementChild as HTMLElement };
    this.result = resultSkeleton();
    this.reasoningEl = this.result.children[0] as HTMLDetailsElement;
    this.output = new LazyMarkdown(this.result.children[1] as HTMLElement, ctx.watcher, ctx.markdown);
    this.errorEl = this.result.children[2] as HTMLElement;
    this.warningsEl = this.result.children[3] as HTMLElement;
    this.result.append(this.hookRuns.el);
    // The row, not the whole subtree, names the treeitem for screen readers.
    this.rowId = `run-row-${nextId++}`;
    row.id = this.rowId;
  }

  /** Renders `node`; `prev` is what was rendered before (undefined: everything is new). */
  render(node: RunNode, prev: RunNode | undefined): void {
    if (prev?.state !== node.state || prev.bailed !== node.bailed || prev.retrying !== node.retrying || prev.toolCalls !== node.toolCalls) {
      // Done, but some of its tool calls failed (an edit whose oldText was not there): not a green "done".
      const failed = node.state === 'ok' ? failedToolCalls(node) : 0;
      setClass(this.icon, failed ? 'codicon codicon-warning state-icon state-ok-failures' : runIconClass(node.state));
      setText(this.stateEl, stateText(node, failed));
      if (failed) setAttr(this.stateEl, 'data-failed-tools', String(failed));
      else this.stateEl.removeAttribute('data-failed-tools');
      // Running and done say it with the icon and the activity; other ends say it in words too.
      setClass(
        this.stateEl,
        node.retrying
          ? 'run-state run-retrying'
          : failed
            ? 'run-state run-failed-tools'
            : node.state === 'running' || (node.state === 'ok' && !node.bailed)
              ? 'run-state sr-only'
              : 'run-state',
      );
    }
    if (prev?.agent !== node.agent) setText(this.agentEl, node.agent);
    if (prev?.task !== node.task) setText(this.taskEl, node.task);
    if (prev?.reasoning !== node.reasoning) {
      // What it thought is folded: plain text (never markdown), there to open, never in the way of its answer.
      this.reasoningEl.hidden = !node.reasoning;
      setText(this.reasoningEl.lastElementChild as HTMLElement, node.reasoning ?? '');
    }
    if (prev?.text !== node.text) this.output.set(node.text);
    if (prev?.toolCalls !== node.toolCalls) renderTodoList(this.body, node);
    if (prev?.error !== node.error) setText(this.errorEl, node.error ?? '');
    if (prev?.warnings !== node.warnings) this.updateWarnings(node.warnings);
    if (prev?.hooks !== node.hooks) this.hookRuns.update(node.hooks);
    this.ctx.runControls?.(node, this.slots, prev);
  }

  /** The live part of the line: what it does now, time and tokens (the tree view computes them). */
  setLine(activity: string, stats: string, statsTitle: string): void {
    setText(this.activityEl, activity);
    setAttr(this.activityEl, 'title', activity);
    setText(this.statsEl, stats);
    setAttr(this.statsEl, 'title', statsTitle);
  }

  private updateWarnings(warnings: readonly string[]): void {
    this.warningsEl.replaceChildren(...warnings.map((w) => h('li', { class: 'run-warning' }, codicon('warning'), h('span', {}, w))));
  }
}

/** The state as words; a retry in progress says which try, after how long, and why. */
function stateText(node: RunNode, failedTools: number): string {
  if (node.retrying) return retryText(node.retrying);
  const failed = failedTools ? `, ${failedTools} ${failedTools === 1 ? 'tool' : 'tools'} failed` : '';
  return runStateLabel(node.state) + failed + (node.bailed ? ' · returned directly' : '');
}
