import type { RunNode, RunTree } from '../../src/shared/runTree';
import { DELEGATION_TOOLS } from '../../src/shared/toolSummary';
import type { ToolCallContext } from './toolCallContext';
import { ToolCallView } from './toolCallView';

/**
 * What is shown under a run, in the order it happened: its tool calls, where a delegation call
 * that started children is shown as those children's nodes (not as the call and its JSON), then
 * any child it started otherwise. Used for a run's group in the tree and for a turn's tree (the
 * top run's items). Tool call views are built on the first `sync` that asks for them (a
 * collapsed run's calls are never looked at, so a big thread builds few).
 */
export class RunItems {
  private readonly toolViews: ToolCallView[] = [];
  private calls: RunNode['toolCalls'] | undefined;

  constructor(
    private readonly container: HTMLElement,
    private readonly ctx: ToolCallContext,
  ) {}

  get built(): boolean {
    return this.calls !== undefined;
  }

  toolViewFor(item: Element): ToolCallView | undefined {
    return this.toolViews.find((v) => v.el === item);
  }

  /** Updates the tool call views (when `withTools`) and puts every item in place. */
  sync(tree: RunTree, node: RunNode, childEl: (runId: string) => HTMLElement | undefined, withTools: boolean): void {
    if (withTools) this.updateTools(node.toolCalls);
    const byCall = new Map<string, string[]>();
    for (const id of node.children) {
      const call = tree.runs[id]?.parentToolCallId;
      if (call === undefined) continue;
      const ids = byCall.get(call);
      if (ids) ids.push(id);
      else byCall.set(call, [id]);
    }
    const order: HTMLElement[] = [];
    const placed = new Set<string>();
    node.toolCalls.forEach((call, i) => {
      const kids = DELEGATION_TOOLS.has(call.tool) ? byCall.get(call.toolCallId) : undefined;
      if (kids) {
        for (const id of kids) {
          const el = childEl(id);
          if (el) order.push(el);
          placed.add(id);
        }
      } else if (this.calls) {
        order.push(this.toolViews[i]!.el);
      }
    });
    for (const id of node.children) {
      if (placed.has(id)) continue;
      const el = childEl(id);
      if (el) order.push(el);
    }
    place(this.container, order);
  }

  /** Tool calls are only ever appended or changed in place by the reducer, so index is a stable key. */
  private updateTools(calls: RunNode['toolCalls']): void {
    if (calls === this.calls) return;
    const before = this.calls;
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i]!;
      let view = this.toolViews[i];
      if (!view) {
        view = new ToolCallView(call.toolCallId, this.ctx);
        this.toolViews.push(view);
      } else if (before?.[i] === call) {
        continue;
      }
      view.update(call);
    }
    this.calls = calls;
  }
}

/** Puts `els` in `container`, in order, moving only what is out of place. */
export function place(container: HTMLElement, els: readonly HTMLElement[]): void {
  let i = 0;
  for (const el of els) {
    const at = container.children[i];
    if (at !== el) container.insertBefore(el, at ?? null);
    i++;
  }
  while (container.children.length > i) container.lastElementChild!.remove();
}
