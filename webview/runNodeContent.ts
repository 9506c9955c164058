import { retryText } from '../src/shared/retryText';
import type { RunNode } from '../src/shared/runTree';
import { codicon, h, setAttr, setClass, setText } from './dom';
import { runIconClass, runStateLabel } from './stateIcons';
import { ToolCallView, type ToolCallContext } from './toolCallView';
import { LazyMarkdown } from './lazyMarkdown';
import type { RenderQueue } from './renderQueue';
import type { VisibilityWatcher } from './visibility';

/**
 * What a run node shows once it is near the viewport: the header row (state icon, agent, state,
 * stats), the task, and the body (tool calls, output, error, warnings). Updated in place, field by
 * field, when the reducer hands over a new node object.
 */

export interface RunNodeContext extends ToolCallContext {
  watcher: VisibilityWatcher;
  markdown: RenderQueue;
}

let nextId = 0;
let headerPrototype: DocumentFragment | undefined;
let bodyPrototype: HTMLElement | undefined;

// Cloning prepared subtrees is faster than building them element by element.
function headerSkeleton(): DocumentFragment {
  headerPrototype ??= (() => {
    const f = document.createDocumentFragment();
    f.append(
      h('div', { class: 'run-row' }, codicon('chevron-down', 'twistie'), h('i', { 'aria-hidden': 'true' }), h('span', { class: 'run-agent' }), h('span', { class: 'run-state' }), h('span', { class: 'run-stats' })),
      h('div', { class: 'run-task' }),
    );
    return f;
  })();
  return headerPrototype.cloneNode(true) as DocumentFragment;
}

function bodySkeleton(): HTMLElement {
  bodyPrototype ??= h('div', { class: 'run-body' }, h('div', { class: 'tool-calls' }), h('div', { class: 'run-output markdown' }), h('div', { class: 'run-error' }), h('ul', { class: 'run-warnings' }));
  return bodyPrototype.cloneNode(true) as HTMLElement;
}

export class RunNodeContent {
  readonly body: HTMLElement;
  readonly rowId: string;
  private readonly icon: HTMLElement;
  private readonly agentEl: HTMLElement;
  private readonly stateEl: HTMLElement;
  private readonly statsEl: HTMLElement;
  private readonly taskEl: HTMLElement;
  private readonly toolsEl: HTMLElement;
  private readonly output: LazyMarkdown;
  private readonly errorEl: HTMLElement;
  private readonly warningsEl: HTMLElement;
  private readonly toolViews: ToolCallView[] = [];

  /** Fills `header` (the node's empty placeholder) and builds the body. */
  constructor(
    header: HTMLElement,
    private readonly ctx: RunNodeContext,
  ) {
    header.append(headerSkeleton());
    const row = header.firstElementChild as HTMLElement;
    this.icon = row.children[1] as HTMLElement;
    this.agentEl = row.children[2] as HTMLElement;
    this.stateEl = row.children[3] as HTMLElement;
    this.statsEl = row.children[4] as HTMLElement;
    this.taskEl = row.nextElementSibling as HTMLElement;
    this.body = bodySkeleton();
    this.toolsEl = this.body.children[0] as HTMLElement;
    this.output = new LazyMarkdown(this.body.children[1] as HTMLElement, ctx.watcher, ctx.markdown);
    this.errorEl = this.body.children[2] as HTMLElement;
    this.warningsEl = this.body.children[3] as HTMLElement;
    // The row, not the whole subtree, names the treeitem for screen readers.
    this.rowId = `run-row-${nextId++}`;
    row.id = this.rowId;
  }

  /** Renders `node`; `prev` is what was rendered before (undefined: everything is new). */
  render(node: RunNode, prev: RunNode | undefined): void {
    if (prev?.state !== node.state || prev.bailed !== node.bailed || prev.retrying !== node.retrying) {
      setClass(this.icon, runIconClass(node.state));
      setText(this.stateEl, stateText(node));
      setClass(this.stateEl, node.retrying ? 'run-state run-retrying' : 'run-state');
    }
    if (prev?.agent !== node.agent) setText(this.agentEl, node.agent);
    if (prev?.task !== node.task) setText(this.taskEl, node.task);
    if (prev?.toolCalls !== node.toolCalls) this.updateToolCalls(node, prev);
    // A top-level run's answer is the assistant message in the conversation: not shown twice.
    if (prev?.text !== node.text && node.parentRunId !== null) this.output.set(node.text);
    if (prev?.error !== node.error) setText(this.errorEl, node.error ?? '');
    if (prev?.warnings !== node.warnings) this.updateWarnings(node.warnings);
  }

  setStats(text: string, title: string): void {
    setText(this.statsEl, text);
    setAttr(this.statsEl, 'title', title);
  }

  toolViewFor(row: Element): ToolCallView | undefined {
    return this.toolViews.find((v) => v.row === row);
  }

  /** Tool calls are only ever appended or changed in place by the reducer, so index is a stable key. */
  private updateToolCalls(node: RunNode, prev: RunNode | undefined): void {
    const calls = node.toolCalls;
    const before = prev?.toolCalls;
    let fresh: DocumentFragment | undefined;
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i]!;
      let view = this.toolViews[i];
      if (!view) {
        view = new ToolCallView(call.toolCallId, this.ctx);
        this.toolViews.push(view);
        (fresh ??= document.createDocumentFragment()).append(view.el);
      } else if (before?.[i] === call) {
        continue;
      }
      view.update(call);
    }
    if (fresh) this.toolsEl.append(fresh);
  }

  private updateWarnings(warnings: readonly string[]): void {
    this.warningsEl.replaceChildren(...warnings.map((w) => h('li', { class: 'run-warning' }, codicon('warning'), h('span', {}, w))));
  }
}

/** The state as words; a retry in progress says which try, after how long, and why. */
function stateText(node: RunNode): string {
  if (node.retrying) return retryText(node.retrying);
  return runStateLabel(node.state) + (node.bailed ? ' · returned directly' : '');
}
