import { oneLine } from '../../src/shared/oneLine';
import type { QueuedPromptView } from '../../src/shared/protocol';
import { focusAfterRemoving } from './chipFocus';
import { codicon, h, setHidden } from '../kit/dom';

/**
 * The prompts waiting for the thread to be quiet, as chips above the prompt box, oldest first.
 * Each has a remove button (a native <button>: Tab reaches it, Enter and Space press it); the chip
 * goes at once, and the host's next `queued` message says what is really left.
 */
export class QueueView {
  readonly el: HTMLElement;
  private readonly list: HTMLElement;
  private shown: readonly QueuedPromptView[] = [];

  constructor(private readonly actions: { unqueue(id: string): void; focusPrompt(): void }) {
    this.list = h('ul', { class: 'queue-list', 'aria-label': 'Queued messages' });
    this.el = h(
      'div',
      { id: 'queue', class: 'queue', hidden: true },
      h('span', { class: 'queue-title' }, codicon('clock'), 'Sent when the thread is done:'),
      this.list,
    );
  }

  get size(): number {
    return this.shown.length;
  }

  set(queued: readonly QueuedPromptView[]): void {
    const same =
      queued.length === this.shown.length && queued.every((q, i) => q.id === this.shown[i]?.id && q.text === this.shown[i]?.text);
    if (same) return;
    this.shown = queued;
    this.list.replaceChildren(...queued.map((q) => this.chip(q)));
    setHidden(this.el, queued.length === 0);
  }

  private chip(q: QueuedPromptView): HTMLElement {
    const line = oneLine(q.text, 80);
    const remove = h(
      'button',
      { type: 'button', class: 'queue-remove', 'aria-label': `Remove queued message: ${line}`, title: 'Remove from the queue' },
      codicon('close'),
    );
    const chip = h('li', { class: 'queue-chip', 'data-queue-id': q.id }, h('span', { class: 'queue-text', title: q.text }, line), remove);
    remove.addEventListener('click', () => {
      const refocus = focusAfterRemoving(chip, this.list, 'data-queue-id', '.queue-remove', () => this.actions.focusPrompt());
      this.set(this.shown.filter((s) => s.id !== q.id));
      refocus();
      this.actions.unqueue(q.id);
    });
    return chip;
  }
}
