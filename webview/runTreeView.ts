import { EMPTY_TREE, runTotals, walkRuns, type RunTree } from '../src/shared/runTree';
import { formatStats } from '../src/shared/usage';
import { h } from './dom';
import { RunNodeView, type RunNodeContext } from './runNodeView';
import { TreeKeyboard } from './treeKeyboard';
import type { UiState } from './uiState';

/**
 * The live tree of runs (`#run-tree`). Keyed: one RunNodeView per run id, created once and
 * updated in place. A batch costs what it touched: the reducer copies exactly the nodes an event
 * changed, so comparing node identity finds them; only those and their ancestors (whose rolled-up
 * stats moved) are visited.
 */

/** A batch creating more runs than this (a big thread loading) builds only these at once, in
 * display order; the others build their content when scrolled near. Smaller batches (live runs
 * starting) build everything at once, so nothing flickers in. */
const EAGER_RUNS = 60;

export interface RunTreeContext extends RunNodeContext {
  ui: UiState;
}

export class RunTreeView {
  readonly el: HTMLUListElement;
  private readonly views = new Map<string, RunNodeView>();
  private readonly running = new Set<string>();
  private roots: readonly string[] = [];
  private tree: RunTree = EMPTY_TREE;
  private now = 0;
  private readonly keyboard: TreeKeyboard;

  constructor(private readonly ctx: RunTreeContext) {
    this.el = h('ul', { id: 'run-tree', role: 'tree', 'aria-label': 'Subagent runs' });
    this.keyboard = new TreeKeyboard(this.el, {
      isExpanded: (row) => row.getAttribute('aria-expanded') === 'true',
      setExpanded: (row, expanded) => this.setExpanded(row, expanded),
    });
    this.el.addEventListener('click', (e) => this.onClick(e));
  }

  reset(): void {
    this.ctx.watcher.clear();
    this.views.clear();
    this.running.clear();
    this.roots = [];
    this.el.replaceChildren();
    this.keyboard.ensureTabStop();
  }

  get size(): number {
    return this.views.size;
  }

  get hasRunning(): boolean {
    return this.running.size > 0;
  }

  /** Applies the runs in `changed` (ids whose node object differs from the last render). */
  update(tree: RunTree, changed: readonly string[], now: number): void {
    this.tree = tree;
    this.now = now;
    const created: RunNodeView[] = [];
    for (const id of changed) {
      const node = tree.runs[id];
      if (!node) continue;
      let view = this.views.get(id);
      if (!view) {
        view = new RunNodeView(id, this.ctx, (runId) => this.statsLine(runId));
        view.setExpanded(!this.ctx.ui.isCollapsed(id));
        view.setLevel(levelOf(tree, id));
        this.views.set(id, view);
        created.push(view);
      }
      view.update(node);
      if (node.state === 'running') this.running.add(id);
      else this.running.delete(id);
    }
    // Structure after content: every child's view exists before its parent places it.
    for (const id of changed) {
      const node = tree.runs[id];
      const view = this.views.get(id);
      if (node && view && !sameIds(view.placedChildren, node.children)) {
        this.place(view.group, node.children);
        view.placedChildren = node.children;
      }
    }
    if (tree.roots !== this.roots) {
      this.place(this.el, tree.roots);
      this.roots = tree.roots;
    }
    this.hydrate(tree, created);
    this.refreshStats(this.withAncestors(tree, changed));
    for (const id of changed) this.revealApproval(tree, id);
    this.keyboard.ensureTabStop();
  }

  /** Running runs' elapsed time moves with the clock, not with events. */
  tick(now: number): void {
    this.now = now;
    this.refreshStats(this.running);
  }

  private hydrate(tree: RunTree, created: RunNodeView[]): void {
    if (created.length <= EAGER_RUNS) {
      for (const view of created) view.hydrate(false);
      return;
    }
    const isNew = new Set(created);
    let eager = 0;
    for (const node of walkRuns(tree)) {
      const view = this.views.get(node.runId);
      if (view && isNew.has(view)) view.hydrate(eager++ >= EAGER_RUNS);
    }
  }

  /** Puts the views of `ids` in `container`, in order, moving only what is out of place. */
  private place(container: HTMLElement, ids: readonly string[]): void {
    let i = 0;
    for (const id of ids) {
      const view = this.views.get(id);
      if (!view) continue;
      const at = container.children[i];
      if (at !== view.el) container.insertBefore(view.el, at ?? null);
      i++;
    }
    while (container.children.length > i) container.lastElementChild!.remove();
  }

  private withAncestors(tree: RunTree, ids: readonly string[]): Set<string> {
    const out = new Set<string>();
    for (const id of ids) {
      for (let cur: string | null | undefined = id; cur && !out.has(cur); cur = tree.runs[cur]?.parentRunId) out.add(cur);
    }
    return out;
  }

  /** Only built nodes show stats; the others ask for theirs when they are built. */
  private refreshStats(ids: Iterable<string>): void {
    for (const id of ids) {
      const view = this.views.get(id);
      if (view?.hydrated) view.setStats(...this.statsLine(id));
    }
  }

  /** Tokens roll up over the subtree; time is the run's own wall time (children run inside it). */
  private statsLine(id: string): [text: string, title: string] {
    const node = this.tree.runs[id];
    if (!node) return ['', ''];
    const totals = runTotals(this.tree, id, this.now);
    const own = formatStats(totals.durationMs, node.usage);
    const all = formatStats(totals.durationMs, totals.usage);
    if (totals.runs === 1) return [all, `This run: ${own}`];
    return [`${all} · ${totals.runs} runs`, `This run: ${own}\nWith its ${totals.runs - 1} subagent runs: ${all}`];
  }

  /** An approval nobody can see blocks its run forever: open the way to it. */
  private revealApproval(tree: RunTree, id: string): void {
    const view = this.views.get(id);
    if (!view?.hasPendingApproval) return;
    for (let cur: string | null | undefined = id; cur; cur = tree.runs[cur]?.parentRunId) {
      const v = this.views.get(cur);
      if (v && !v.expanded) this.setExpanded(v.el, true);
    }
  }

  /** Expands or collapses a run (a treeitem) or opens or closes a tool call's output (a tool row). */
  private setExpanded(row: HTMLElement, expanded: boolean): void {
    const item = row.closest<HTMLElement>('[role="treeitem"]');
    const id = item?.dataset.runId;
    const view = id ? this.views.get(id) : undefined;
    if (!item || !id || !view) return;
    if (row !== item) {
      view.toolViewFor(row)?.setOpen(expanded);
      return;
    }
    view.setExpanded(expanded);
    this.ctx.ui.setCollapsed(id, !expanded);
    if (!expanded) this.keyboard.collapsed(item);
  }

  private onClick(e: MouseEvent): void {
    const target = e.target as HTMLElement;
    const header = target.closest('.run-header');
    const row = target.closest<HTMLElement>('.tool-row') ?? (header?.parentElement as HTMLElement | null | undefined);
    if (!row || !this.el.contains(row)) return;
    // Selecting text to copy it is not a request to collapse.
    if (!(window.getSelection()?.isCollapsed ?? true)) return;
    this.setExpanded(row, row.getAttribute('aria-expanded') !== 'true');
    this.keyboard.setActive(row, true);
  }
}

/** aria-level: 1 for a top-level run, one more per ancestor this tree holds. */
function levelOf(tree: RunTree, id: string): number {
  let level = 1;
  for (let p = tree.runs[id]?.parentRunId; p && tree.runs[p]; p = tree.runs[p]?.parentRunId) level++;
  return level;
}

function sameIds(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
