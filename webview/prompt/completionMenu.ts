import { codicon, h, setAttr, setHidden } from '../kit/dom';

/**
 * The list under the caret while `@agent` or `#file` is typed: a listbox the prompt keeps focus
 * over (aria-activedescendant), driven from the keyboard: Up and Down choose, Enter or Tab take
 * the choice, Escape closes. A click takes an option too.
 */

export interface CompletionItem {
  id: string;
  label: string;
  detail: string;
  /** Not usable as it is (an agent whose file failed to load): drawn as a problem. */
  broken?: boolean;
}

export class CompletionMenu {
  readonly el: HTMLUListElement;
  private items: CompletionItem[] = [];
  private active = 0;

  constructor(
    private readonly input: HTMLElement,
    private readonly accept: (item: CompletionItem) => void,
  ) {
    this.el = h('ul', { id: 'prompt-completions', class: 'completions', role: 'listbox', 'aria-label': 'Suggestions', hidden: true });
    input.setAttribute('aria-autocomplete', 'list');
    input.setAttribute('aria-controls', this.el.id);
    setAttr(input, 'aria-expanded', 'false');
    // mousedown, not click: the prompt must not lose focus (and close the list) first.
    this.el.addEventListener('mousedown', (e) => {
      const option = (e.target as HTMLElement).closest<HTMLElement>('[role="option"]');
      if (!option) return;
      e.preventDefault();
      const item = this.items[Number(option.dataset.index)];
      if (item) this.take(item);
    });
  }

  get open(): boolean {
    return !this.el.hidden;
  }

  show(items: CompletionItem[]): void {
    if (items.length === 0) return this.hide();
    const same = items.length === this.items.length && items.every((it, i) => it.id === this.items[i]?.id);
    this.items = items;
    if (!same) {
      this.active = 0;
      this.el.replaceChildren(
        ...items.map((it, i) =>
          h(
            'li',
            {
              id: `completion-${i}`,
              role: 'option',
              class: it.broken ? 'completion broken' : 'completion',
              'data-index': i,
              'data-id': it.id,
            },
            ...(it.broken ? [codicon('error')] : []),
            h('span', { class: 'completion-label' }, it.label),
            h('span', { class: 'completion-detail' }, it.detail),
          ),
        ),
      );
    }
    setHidden(this.el, false);
    setAttr(this.input, 'aria-expanded', 'true');
    this.highlight();
  }

  hide(): void {
    setHidden(this.el, true);
    setAttr(this.input, 'aria-expanded', 'false');
    this.input.removeAttribute('aria-activedescendant');
  }

  /** Handles a key typed in the prompt while the list is open; true when it was the list's. */
  handleKey(e: KeyboardEvent): boolean {
    if (!this.open) return false;
    switch (e.key) {
      case 'ArrowDown':
        this.active = (this.active + 1) % this.items.length;
        break;
      case 'ArrowUp':
        this.active = (this.active - 1 + this.items.length) % this.items.length;
        break;
      case 'Enter':
      case 'Tab':
        if (e.shiftKey) return false;
        this.take(this.items[this.active]!);
        break;
      case 'Escape':
        this.hide();
        break;
      default:
        return false;
    }
    e.preventDefault();
    this.highlight();
    return true;
  }

  private take(item: CompletionItem): void {
    this.hide();
    this.accept(item);
  }

  private highlight(): void {
    this.el.querySelectorAll('[aria-selected="true"]').forEach((el) => el.setAttribute('aria-selected', 'false'));
    const option = this.el.children[this.active];
    if (!option) return;
    option.setAttribute('aria-selected', 'true');
    this.input.setAttribute('aria-activedescendant', option.id);
  }
}
