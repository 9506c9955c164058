/**
 * Keyboard navigation for the run tree, after the WAI-ARIA tree pattern with a roving tabindex:
 * exactly one row is in the tab order and the arrow keys move focus between the rows shown.
 * Rows are the run treeitems (nested, each child list a `role="group"` inside its item) and,
 * inside an expanded run, its tool-call rows, which come before its child runs.
 */

export interface TreeExpansion {
  isExpanded(row: HTMLElement): boolean;
  setExpanded(row: HTMLElement, expanded: boolean): void;
}

const ITEM = '[role="treeitem"]';
const TOOL_ROWS = ':scope > .run-body > .tool-calls > .tool-call > .tool-row';

function isItem(el: HTMLElement): boolean {
  return el.getAttribute('role') === 'treeitem';
}

export class TreeKeyboard {
  private active: HTMLElement | undefined;

  constructor(
    private readonly tree: HTMLElement,
    private readonly expansion: TreeExpansion,
  ) {
    tree.addEventListener('keydown', (e) => this.onKey(e));
    tree.addEventListener('focusin', (e) => {
      const target = e.target as HTMLElement;
      if (this.isRow(target)) this.setActive(target, false);
    });
  }

  /** Keeps one row tabbable after the tree changed (first render, reset, a collapse). */
  ensureTabStop(): void {
    if (this.active?.isConnected && this.isShown(this.active)) return;
    const first = this.tree.firstElementChild as HTMLElement | null;
    if (first) this.setActive(first, false);
    else this.active = undefined;
  }

  setActive(row: HTMLElement, focus: boolean): void {
    if (this.active !== row) {
      this.active?.setAttribute('tabindex', '-1');
      row.setAttribute('tabindex', '0');
      this.active = row;
    }
    if (focus) row.focus();
  }

  /** A collapse must not leave the tab stop hidden inside the collapsed item. */
  collapsed(item: HTMLElement): void {
    if (this.active && this.active !== item && item.contains(this.active)) this.setActive(item, false);
  }

  private isRow(el: HTMLElement): boolean {
    return isItem(el) || el.classList.contains('tool-row');
  }

  private onKey(e: KeyboardEvent): void {
    const row = e.target as HTMLElement;
    // Keys typed into buttons inside a row (an approval) are theirs, not the tree's.
    if (!this.isRow(row) || e.altKey || e.ctrlKey || e.metaKey) return;
    const target = this.targetFor(e.key, row);
    if (target === null) return;
    e.preventDefault();
    if (target) this.setActive(target, true);
  }

  /** The row to focus; undefined when the key was handled without moving, null when not ours. */
  private targetFor(key: string, row: HTMLElement): HTMLElement | undefined | null {
    const expanded = this.expansion.isExpanded(row);
    switch (key) {
      case 'ArrowDown':
        return this.next(row);
      case 'ArrowUp':
        return this.previous(row);
      case 'Home':
        return (this.tree.firstElementChild as HTMLElement | null) ?? undefined;
      case 'End': {
        const last = this.tree.lastElementChild as HTMLElement | null;
        return last ? this.lastShown(last) : undefined;
      }
      case 'ArrowRight':
        if (!expanded) {
          this.expansion.setExpanded(row, true);
          return undefined;
        }
        return this.kids(row)[0];
      case 'ArrowLeft':
        if (expanded) {
          this.expansion.setExpanded(row, false);
          return undefined;
        }
        return this.parent(row);
      case 'Enter':
      case ' ':
        this.expansion.setExpanded(row, !expanded);
        return undefined;
      default:
        return null;
    }
  }

  /** The rows shown directly under `row`: tool calls, then child runs; none when collapsed. */
  private kids(row: HTMLElement): HTMLElement[] {
    if (!isItem(row) || !this.expansion.isExpanded(row)) return [];
    const tools = [...row.querySelectorAll<HTMLElement>(TOOL_ROWS)];
    const group = row.querySelector(':scope > [role="group"]');
    return group ? tools.concat([...group.children] as HTMLElement[]) : tools;
  }

  private parent(row: HTMLElement): HTMLElement | undefined {
    const parent = row.parentElement?.closest<HTMLElement>(ITEM);
    return parent && this.tree.contains(parent) ? parent : undefined;
  }

  private siblings(row: HTMLElement): HTMLElement[] {
    const parent = this.parent(row);
    return parent ? this.kids(parent) : ([...this.tree.children] as HTMLElement[]);
  }

  private next(row: HTMLElement): HTMLElement | undefined {
    const first = this.kids(row)[0];
    if (first) return first;
    for (let cur: HTMLElement | undefined = row; cur; cur = this.parent(cur)) {
      const sibs = this.siblings(cur);
      const after = sibs[sibs.indexOf(cur) + 1];
      if (after) return after;
    }
    return undefined;
  }

  private previous(row: HTMLElement): HTMLElement | undefined {
    const sibs = this.siblings(row);
    const before = sibs[sibs.indexOf(row) - 1];
    return before ? this.lastShown(before) : this.parent(row);
  }

  /** The last row shown inside `row` (itself when collapsed or empty). */
  private lastShown(row: HTMLElement): HTMLElement {
    let cur = row;
    for (let kids = this.kids(cur); kids.length; kids = this.kids(cur)) cur = kids[kids.length - 1]!;
    return cur;
  }

  private isShown(row: HTMLElement): boolean {
    for (let p = this.parent(row); p; p = this.parent(p)) if (!this.expansion.isExpanded(p)) return false;
    return true;
  }
}
