import { runActivity } from '../../src/shared/runActivity';
import { type RunNode, type RunTree } from '../../src/shared/runTree';
import { runTotals } from '../../src/shared/runTotals';
import { compactCount, formatCost, formatDuration, formatStats, formatTokens } from '../../src/shared/usage';
import { h, setHidden } from '../kit/dom';
import { RunItems } from './runItems';
import { RunNodeView, type RunNodeContext } from './runNodeView';
import { TreeKeyboard } from './treeKeyboard';
import type { UiState } from '../uiState';

/**
 * One turn's runs, under its answer: a `tree` whose top items are what the turn's top run did
 * (its tool calls, and its delegations as the child runs they started), each child one live
 * line until expanded. Keyed: one RunNodeView per run id, created once and updated in place; a
 * batch visits only the runs it touched (the reducer copies exactly those) and their ancestors,
 * whose live lines roll up time and tokens.
 */

export interface TurnTreeContext extends RunNodeContext {
  ui: UiState;
}

/**
 * How many run lines a frame may still build at once, shared by the turns it updates. A thread
 * loading creates far more runs than are shown; those past the budget (and all hidden in a
 * collapsed run) build when they come near the viewport. Live runs starting fit in it, so they
 * never flicker in.
 */
export interface LineBudget {
  left: number;
}

export class TurnTree {
  readonly el: HTMLUListElement;
  private readonly views = new Map<string, RunNodeView>();
  private readonly running = new Set<string>();
  private readonly rootItems: RunItems;
  private tree: RunTree | undefined;
  private now = 0;
  private readonly keyboard: TreeKeyboard;

  constructor(
    private readonly rootId: string,
    private readonly ctx: TurnTreeContext,
  ) {
    this.el = h('ul', { class: 'run-tree', role: 'tree', 'aria-label': 'What this turn did', hidden: true });
    this.rootItems = new RunItems(this.el, ctx);
    this.keyboard = new TreeKeyboard(this.el, {
      isExpanded: (item) => item.getAttribute('aria-expanded') === 'true',
      setExpanded: (item, expanded) => this.setExpanded(item, expanded),
    });
    this.el.addEventListener('click', (e) => this.onClick(e));
  }

  get runningIds(): ReadonlySet<string> {
    return this.running;
  }

  /** Applies the runs of this turn in `changed` (ids whose node object differs from the last render). */
  update(tree: RunTree, changed: readonly string[], now: number, budget: LineBudget): void {
    this.tree = tree;
    this.now = now;
    const created: RunNodeView[] = [];
    for (const id of changed) {
      if (id === this.rootId) continue;
      const node = tree.runs[id];
      if (!node) continue;
      let view = this.views.get(id);
      if (!view) {
        view = new RunNodeView(id, this.ctx, (runId) => this.refreshLine(runId));
        view.setLevel(levelOf(tree, id, this.rootId));
        if (this.ctx.ui.isExpanded(id)) view.setExpanded(true);
        this.views.set(id, view);
        created.push(view);
      }
      view.update(node);
      if (node.state === 'running') this.running.add(id);
      else this.running.delete(id);
    }
    // Structure after content: every child's view exists before its parent places it.
    const childEl = (runId: string) => this.views.get(runId)?.el;
    for (const id of changed) {
      const node = tree.runs[id];
      if (!node) continue;
      if (id === this.rootId) this.rootItems.sync(tree, node, childEl, true);
      else this.views.get(id)?.syncItems(tree, childEl);
    }
    setHidden(this.el, this.el.children.length === 0);
    this.hydrate(created, budget);
    this.refreshLines(this.withAncestors(tree, changed));
    for (const id of changed) this.revealApproval(tree, id);
    this.keyboard.ensureTabStop();
  }

  /** Running runs' elapsed time moves with the clock, not with events. */
  tick(now: number): void {
    this.now = now;
    this.refreshLines(this.running);
  }

  private hydrate(created: RunNodeView[], budget: LineBudget): void {
    for (const view of created) {
      const now = budget.left > 0 && this.isShown(view);
      if (now) budget.left--;
      view.hydrate(!now);
    }
  }

  private isShown(view: RunNodeView): boolean {
    const tree = this.tree!;
    for (let p = tree.runs[view.runId]?.parentRunId; p && p !== this.rootId; p = tree.runs[p]?.parentRunId) {
      if (!this.views.get(p)?.expanded) return false;
    }
    return true;
  }

  private withAncestors(tree: RunTree, ids: readonly string[]): Set<string> {
    const out = new Set<string>();
    for (const id of ids) {
      for (let cur: string | null | undefined = id; cur && cur !== this.rootId && !out.has(cur); cur = tree.runs[cur]?.parentRunId)
        out.add(cur);
    }
    return out;
  }

  private refreshLines(ids: Iterable<string>): void {
    for (const id of ids) this.refreshLine(id);
  }

  /** Only built lines are refreshed; the others ask for theirs when they are built. */
  private refreshLine(id: string): void {
    const view = this.views.get(id);
    const node = this.tree?.runs[id];
    if (!view?.hydrated || !node || !this.tree) return;
    const [stats, title] = this.statsLine(node);
    view.setLine(node.retrying ? '' : runActivity(this.tree, node), stats, title);
  }

  /** Tokens (the cached ones among them) and cost roll up over the subtree; time is the run's own wall time (children run inside it). */
  private statsLine(node: RunNode): [text: string, title: string] {
    const totals = runTotals(this.tree!, node.runId, this.now);
    const { usage } = totals;
    const cached = usage.cacheReadTokens ? `${compactCount(usage.cacheReadTokens)} cached` : '';
    const line = [formatDuration(totals.durationMs), formatTokens(usage.totalTokens), cached, formatCost(usage)]
      .filter(Boolean)
      .join(' · ');
    const own = formatStats(totals.durationMs, node.usage);
    const unpriced = usage.unpricedTokens
      ? `\n${compactCount(usage.unpricedTokens)} tokens of models with no price in subagents.prices are not in the cost.`
      : '';
    if (totals.runs === 1) return [line, `This run: ${own}${unpriced}`];
    return [
      line,
      `This run: ${own}\nWith its ${totals.runs - 1} subagent runs: ${formatStats(totals.durationMs, totals.usage)}${unpriced}`,
    ];
  }

  /** An approval nobody can see blocks its run forever: open the way to it. */
  private revealApproval(tree: RunTree, id: string): void {
    const view = this.views.get(id);
    if (!view?.hasPendingApproval) return;
    for (let cur: string | null | undefined = id; cur && cur !== this.rootId; cur = tree.runs[cur]?.parentRunId) {
      const v = this.views.get(cur);
      if (v && !v.expanded) this.setExpanded(v.el, true);
    }
  }

  /** Expands or collapses a run, or opens or closes a tool call's detail. */
  private setExpanded(item: HTMLElement, expanded: boolean): void {
    if (item.classList.contains('tool-call')) {
      const owner = item.parentElement?.closest<HTMLElement>('.run-node');
      const tool = owner ? this.views.get(owner.dataset.runId!)?.toolViewFor(item) : this.rootItems.toolViewFor(item);
      tool?.setOpen(expanded);
      return;
    }
    const view = this.views.get(item.dataset.runId ?? '');
    if (!view) return;
    view.setExpanded(expanded);
    this.ctx.ui.setExpanded(view.runId, expanded);
    // Its tool calls are built the first time it opens; its child runs' lines build as they come into view.
    if (expanded && this.tree) view.syncItems(this.tree, (runId) => this.views.get(runId)?.el);
    if (!expanded) this.keyboard.collapsed(item);
  }

  private onClick(e: MouseEvent): void {
    const target = e.target as HTMLElement;
    // Links and controls inside an item do their own thing.
    if (target.closest('a, button, input, vscode-button, .approval, .tool-detail, .run-controls, .run-actions')) return;
    const row = target.closest('.run-header, .tool-row');
    const item = row?.parentElement as HTMLElement | null | undefined;
    if (!item || !this.el.contains(item)) return;
    // Selecting text to copy it is not a request to collapse.
    if (!(window.getSelection()?.isCollapsed ?? true)) return;
    this.setExpanded(item, item.getAttribute('aria-expanded') !== 'true');
    this.keyboard.setActive(item, true);
  }
}

/** aria-level: 1 for the turn's top items, one more per run between them and this one. */
function levelOf(tree: RunTree, id: string, rootId: string): number {
  let level = 1;
  for (let p = tree.runs[id]?.parentRunId; p && p !== rootId && tree.runs[p]; p = tree.runs[p]?.parentRunId) level++;
  return level;
}
