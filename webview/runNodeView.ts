import type { RunNode } from '../src/shared/runTree';
import { h, setAttr } from './dom';
import { RunNodeContent, type RunNodeContext } from './runNodeContent';
import type { ToolCallView } from './toolCallView';

/**
 * One run in the tree: a `treeitem` carrying the run's id, agent, state and depth, with its child
 * runs in a `role="group"` inside it. The shell is three elements and always exists, so the tree's
 * structure and attributes are complete at once; the content (header row, tool calls, output) is
 * built when the node comes near the viewport, because building and laying out a thousand runs'
 * worth of rows nobody is looking at is what would break the render budget.
 */

export type { RunNodeContext };

let prototype: HTMLLIElement | undefined;
function shell(): HTMLLIElement {
  prototype ??= h('li', { role: 'treeitem', class: 'run-node', tabindex: -1, 'aria-expanded': 'true' }, h('div', { class: 'run-header' }), h('ul', { role: 'group', class: 'run-children' }));
  return prototype.cloneNode(true) as HTMLLIElement;
}

export class RunNodeView {
  readonly el: HTMLLIElement;
  readonly group: HTMLUListElement;
  private readonly header: HTMLElement;
  private content: RunNodeContent | undefined;
  private node: RunNode | undefined;
  private waiting = false;
  /** The child ids last placed in `group`; the tree view reconciles when they differ. */
  placedChildren: readonly string[] = [];

  constructor(
    runId: string,
    private readonly ctx: RunNodeContext,
    /** Asked for the stats line when the content is built (the tree view owns the totals). */
    private readonly statsFor: (runId: string) => [text: string, title: string],
  ) {
    this.el = shell();
    this.header = this.el.firstElementChild as HTMLElement;
    this.group = this.el.lastElementChild as HTMLUListElement;
    this.el.dataset.runId = runId;
  }

  get hydrated(): boolean {
    return this.content !== undefined;
  }

  /** Builds the content now, or once the node is near the viewport. */
  hydrate(lazily: boolean): void {
    if (this.content) return;
    if (lazily) {
      this.waiting = true;
      this.reserveSpace();
      this.ctx.watcher.watch(this.header, (visible) => {
        if (!visible) return;
        this.ctx.watcher.unwatch(this.header);
        this.hydrate(false);
      });
      return;
    }
    this.ctx.watcher.unwatch(this.header);
    this.waiting = false;
    this.header.style.removeProperty('height');
    const content = new RunNodeContent(this.header, this.ctx);
    this.content = content;
    this.el.setAttribute('aria-labelledby', content.rowId);
    this.el.insertBefore(content.body, this.group);
    if (this.node) content.render(this.node, undefined);
    const id = this.el.dataset.runId!;
    content.setStats(...this.statsFor(id));
  }

  update(node: RunNode): void {
    const prev = this.node;
    this.node = node;
    if (prev?.state !== node.state) setAttr(this.el, 'data-state', node.state);
    if (prev?.agent !== node.agent) setAttr(this.el, 'data-agent', node.agent);
    if (prev?.depth !== node.depth) setAttr(this.el, 'data-depth', String(node.depth));
    if (this.content) this.content.render(node, prev);
    else if (this.waiting && prev?.toolCalls.length !== node.toolCalls.length) this.reserveSpace();
  }

  /**
   * A node not built yet holds about the height it will have, so building the nodes near the
   * viewport barely moves what the user is looking at. Set through CSSOM, which the CSP allows
   * (a `style` attribute in markup it would not).
   */
  private reserveSpace(): void {
    const node = this.node;
    const px = 38 + (node ? node.toolCalls.length * 21 + (node.text ? 40 : 0) : 0);
    this.header.style.height = `${px}px`;
  }

  setStats(text: string, title: string): void {
    this.content?.setStats(text, title);
  }

  get expanded(): boolean {
    return this.el.getAttribute('aria-expanded') === 'true';
  }

  /** The twistie turns and the body hides through CSS keyed on aria-expanded: one attribute to keep right. */
  setExpanded(expanded: boolean): void {
    setAttr(this.el, 'aria-expanded', String(expanded));
  }

  setLevel(level: number): void {
    setAttr(this.el, 'aria-level', String(level));
  }

  get state(): RunNode['state'] | undefined {
    return this.node?.state;
  }

  toolViewFor(row: Element): ToolCallView | undefined {
    return this.content?.toolViewFor(row);
  }

  get hasPendingApproval(): boolean {
    return this.node?.toolCalls.some((c) => c.approval !== undefined && c.approval.decision === undefined) ?? false;
  }
}
