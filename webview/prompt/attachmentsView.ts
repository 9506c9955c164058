import type { AttachmentView } from '../../src/shared/protocol';
import { focusAfterRemoving } from './chipFocus';
import { codicon, h, iconButton, setHidden } from '../kit/dom';

/**
 * The context attached to the next prompt (a file, the editor's selection), as chips above the
 * box, each with a remove button. The host says what is attached (`attachments`); a removed chip
 * goes at once and the host's next message says what is really left.
 */
export class AttachmentsView {
  readonly el: HTMLUListElement;
  private items: readonly AttachmentView[] = [];

  constructor(private readonly actions: { detach(id: string): void; focusPrompt(): void }) {
    this.el = h('ul', { id: 'attachments', class: 'attachments', 'aria-label': 'Attached context', hidden: true });
  }

  get ids(): string[] {
    return this.items.map((i) => i.id);
  }

  set(items: readonly AttachmentView[]): void {
    this.items = items;
    this.el.replaceChildren(...items.map((item) => this.chip(item)));
    setHidden(this.el, items.length === 0);
  }

  private chip(item: AttachmentView): HTMLElement {
    const remove = iconButton(`Remove ${item.label}`, 'close', 'attachment-remove');
    const chip = h(
      'li',
      { class: 'attachment-chip', 'data-attachment-id': item.id, title: item.label },
      codicon(item.kind === 'file' ? 'file' : 'selection'),
      h('span', { class: 'attachment-label' }, item.label),
      remove,
    );
    remove.addEventListener('click', () => {
      const refocus = focusAfterRemoving(chip, this.el, 'data-attachment-id', '.attachment-remove', () => this.actions.focusPrompt());
      this.set(this.items.filter((i) => i.id !== item.id));
      refocus();
      this.actions.detach(item.id);
    });
    return chip;
  }
}
