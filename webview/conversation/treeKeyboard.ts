/**
 * Keyboard navigation for a turn's tree, after the WAI-ARIA tree pattern with a roving tabindex:
 * exactly one item is in the tab order and the arrow keys move focus between the items shown.
 * Items are run nodes and tool calls, each a `treeitem`; a run's items sit in the `role="group"`
 * inside it. A tool call has no group: expanding it opens its detail.
 */

export interface TreeExpansion {
  isExpanded(item: HTMLElement): boolean;
  setExpanded(item: HTMLElement, expanded: boolean): void;
}

const ITEM = '[role="treeitem"]';

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
      if (isItem(target)) this.setActive(target, false);
    });
  }

  /** Keeps one item tabbable after the tree changed (first render, reset, a collapse). */
  ensureTabStop(): void {
    if (this.active?.isConnected && this.tree.contains(this.active) && this.isShown(this.active)) return;
    const first = this.tree.firstElementChild as HTMLElement | null;
    if (first) this.setActive(first, false);
    else this.active = undefined;
  }

  setActive(item: HTMLElement, focus: boolean): void {
    if (this.active !== item) {
      this.active?.setAttribute('tabindex', '-1');
      item.setAttribute('tabindex', '0');
      this.active = item;
    }
    if (focus) item.focus();
  }

  /** A collapse must not leave the tab stop hidden inside the collapsed item. */
  collapsed(item: HTMLElement): void {
    if (this.active && this.active !== item && item.contains(this.active)) this.setActive(item, false);
  }

  private onKey(e: KeyboardEvent): void {
    const item = e.target as HTMLElement;
    // Keys typed into controls inside an item (an approval, a link) are theirs, not the tree's.
    if (!isItem(item) || e.altKey || e.ctrlKey || e.metaKey) return;
    const target = this.targetFor(e.key, item);
    if (target === null) return;
    e.preventDefault();
    if (target) this.setActive(target, true);
  }

  /** The item to focus; undefined when the key was handled without moving, null when not ours. */
  private targetFor(key: string, item: HTMLElement): HTMLElement | undefined | null {
    const expanded = this.expansion.isExpanded(item);
    switch (key) {
      case 'ArrowDown':
        return this.next(item);
      case 'ArrowUp':
        return this.previous(item);
      case 'Home':
        return (this.tree.firstElementChild as HTMLElement | null) ?? undefined;
      case 'End': {
        const last = this.tree.lastElementChild as HTMLElement | null;
        return last ? this.lastShown(last) : undefined;
      }
      case 'ArrowRight':
        if (!expanded) {
          this.expansion.setExpanded(item, true);
          return undefined;
        }
        return this.kids(item)[0];
      case 'ArrowLeft':
        if (expanded) {
          this.expansion.setExpanded(item, false);
          return undefined;
        }
        return this.parent(item);
      case 'Enter':
      case ' ':
        this.expansion.setExpanded(item, !expanded);
        return undefined;
      default:
        return null;
    }
  }

  /** The items shown directly under `item`: none when it is collapsed or has no group. */
  private kids(item: HTMLElement): HTMLElement[] {
    if (!this.expansion.isExpanded(item)) return [];
    const group = item.querySelector(':scope > [role="group"]');
    return group ? ([...group.children] as HTMLElement[]) : [];
  }

  private parent(item: HTMLElement): HTMLElement | undefined {
    const parent = item.parentElement?.closest<HTMLElement>(ITEM);
    return parent && this.tree.contains(parent) ? parent : undefined;
  }

  private siblings(item: HTMLElement): HTMLElement[] {
    const parent = this.parent(item);
    return parent ? this.kids(parent) : ([...this.tree.children] as HTMLElement[]);
  }

  private next(item: HTMLElement): HTMLElement | undefined {
    const first = this.kids(item)[0];
    if (first) return first;
    for (let cur: HTMLElement | undefined = item; cur; cur = this.parent(cur)) {
      const sibs = this.siblings(cur);
      const after = sibs[sibs.indexOf(cur) + 1];
      if (after) return after;
    }
    return undefined;
  }

  private previous(item: HTMLElement): HTMLElement | undefined {
    const sibs = this.siblings(item);
    const before = sibs[sibs.indexOf(item) - 1];
    return before ? this.lastShown(before) : this.parent(item);
  }

  /** The last item shown inside `item` (itself when collapsed or empty). */
  private lastShown(item: HTMLElement): HTMLElement {
    let cur = item;
    for (let kids = this.kids(cur); kids.length; kids = this.kids(cur)) cur = kids[kids.length - 1]!;
    return cur;
  }

  private isShown(item: HTMLElement): boolean {
    for (let p = this.parent(item); p; p = this.parent(p)) if (!this.expansion.isExpanded(p)) return false;
    return true;
  }
}
