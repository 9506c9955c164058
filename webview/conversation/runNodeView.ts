import type { RunNode, RunTree } from '../../src/shared/runTree';
import { h, setAttr } from '../kit/dom';
import { RunItems } from './runItems';
import { RunNodeContent, type RunNodeContext } from './runNodeContent';
import type { ToolCallView } from './toolCallView';

/**
 * One run in a turn's tree: a `treeitem` carrying the run's id, agent, state and depth, with its
 * items (tool calls and child runs) in a `role="group"` inside it. Collapsed by default: one live
 * line. The shell is three elements and always exists, so the tree's structure is complete at
 * once; the line and body are built when the node comes near the viewport, and the tool calls
 * when it is first expanded, because building rows nobody is looking at is what would break the
 * render budget.
 */

export type { RunNodeContext };

let prototype: HTMLLIElement | undefined;
function shell(): HTMLLIElement {
  prototype ??= h(
    'li',
    { role: 'treeitem', class: 'run-node', tabindex: -1, 'aria-expanded': 'false' },
    h('div', { class: 'run-header' }),
    h('ul', { role: 'group', class: 'run-children' }),
  );
  return prototype.cloneNode(true) as HTMLLIElement;
}

export class RunNodeView {
  readonly el: HTMLLIElement;
  readonly group: HTMLUListElement;
  private readonly header: HTMLElement;
  private readonly items: RunItems;
  private content: RunNodeContent | undefined;
  private node: RunNode | undefined;
  /** What the items were last placed from; the tree view syncs again when one differs. */
  private placed: { toolCalls: unknown; children: unknown; withTools: boolean } | undefined;

  constructor(
    runId: string,
    private readonly ctx: RunNodeContext,
    /** Asked for the live line when the content is built (the tree view owns the totals). */
    private readonly lineFor: (runId: string) => void,
  ) {
    this.el = shell();
    this.header = this.el.firstElementChild as HTMLElement;
    this.group = this.el.lastElementChild as HTMLUListElement;
    this.el.dataset.runId = runId;
    this.items = new RunItems(this.group, ctx);
  }

  get hydrated(): boolean {
    return this.content !== undefined;
  }

  get runId(): string {
    return this.el.dataset.runId!;
  }

  /** Builds the line and body now, or once the node is near the viewport. */
  hydrate(lazily: boolean): void {
    if (this.content) return;
    if (lazily) {
      this.ctx.watcher.watch(this.header, (visible) => {
        if (!visible) return;
        this.ctx.watcher.unwatch(this.header);
        this.hydrate(false);
      });
      return;
    }
    this.ctx.watcher.unwatch(this.header);
    const content = new RunNodeContent(this.header, this.ctx);
    this.content = content;
    this.el.setAttribute('aria-labelledby', content.rowId);
    this.el.insertBefore(content.body, this.group);
    this.el.append(content.result);
    if (this.node) content.render(this.node, undefined);
    this.lineFor(this.runId);
  }

  update(node: RunNode): void {
    const prev = this.node;
    this.node = node;
    if (prev?.state !== node.state) setAttr(this.el, 'data-state', node.state);
    if (prev?.agent !== node.agent) setAttr(this.el, 'data-agent', node.agent);
    if (prev?.depth !== node.depth) setAttr(this.el, 'data-depth', String(node.depth));
    this.content?.render(node, prev);
  }

  /** Places the items when they changed; tool calls only once the node has been expanded. */
  syncItems(tree: RunTree, childEl: (runId: string) => HTMLElement | undefined): void {
    const node = this.node;
    if (!node) return;
    const withTools = this.expanded || this.items.built;
    const p = this.placed;
    if (p && p.toolCalls === node.toolCalls && p.children === node.children && p.withTools === withTools) return;
    this.items.sync(tree, node, childEl, withTools);
    this.placed = { toolCalls: node.toolCalls, children: node.children, withTools };
  }

  setLine(activity: string, stats: string, title: string): void {
    this.content?.setLine(activity, stats, title);
  }

  get expanded(): boolean {
    return this.el.getAttribute('aria-expanded') === 'true';
  }

  /** The twistie turns and the body hides through CSS keyed on aria-expanded: one attribute to keep right. */
  setExpanded(expanded: boolean): void {
    setAttr(this.el, 'aria-expanded', String(expanded));
    if (expanded) this.hydrate(false);
  }

  setLevel(level: number): void {
    setAttr(this.el, 'aria-level', String(level));
  }

  toolViewFor(item: Element): ToolCallView | undefined {
    return this.items.toolViewFor(item);
  }

  get hasPendingApproval(): boolean {
    return this.node?.toolCalls.some((c) => c.approval !== undefined && c.approval.decision === undefined) ?? false;
  }
}
