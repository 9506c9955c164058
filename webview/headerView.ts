import type { ThreadSummary } from '../src/shared/protocol';
import { h, setText } from './dom';
import { button, dropdown, type Dropdown } from './toolkit';

/** The top bar: the thread's title, a picker of recent threads and the New Thread button. */

const MAX_THREADS = 30;
const TITLE_MAX = 80;

export class HeaderView {
  readonly el: HTMLElement;
  private readonly title: HTMLElement;
  private readonly picker: Dropdown;
  private current: string | null = null;
  private shown = '';

  constructor(actions: { openThread(threadId: string): void; newThread(): void }) {
    this.title = h('h1', { id: 'thread-title', class: 'thread-title' }, 'New thread');
    this.picker = dropdown('thread-picker', 'Recent threads', (value) => {
      // The picker also lists the current thread; choosing it again is not a request.
      if (value && value !== this.current) actions.openThread(value);
    });
    const newThread = button({ id: 'new-thread', label: 'New Thread', icon: 'add', appearance: 'icon' });
    newThread.addEventListener('click', () => actions.newThread());
    this.el = h('header', { class: 'header' }, this.title, h('div', { class: 'header-actions' }, this.picker.el, newThread));
  }

  /** `fallback` names a thread the host has not listed yet (its first prompt). */
  update(threads: readonly ThreadSummary[], threadId: string | null, fallback: string): void {
    this.current = threadId;
    const listed = threadId ? threads.find((t) => t.id === threadId) : undefined;
    const title = oneLine(listed?.title || fallback || 'New thread');
    setText(this.title, title);
    this.title.title = title;
    const recent = [...threads].sort((a, b) => b.updatedAt - a.updatedAt).slice(0, MAX_THREADS);
    const options = recent.map((t) => ({ value: t.id, label: oneLine(t.title || 'Untitled thread') }));
    // The current thread is always an option, even new (not listed yet) or older than the rest.
    if (!recent.some((t) => t.id === threadId)) options.unshift({ value: threadId ?? '', label: title });
    // Rebuilding the options resets the control: do it only when they change.
    const key = JSON.stringify([options, threadId]);
    if (key === this.shown) return;
    this.shown = key;
    this.picker.setOptions(options, threadId ?? '');
    this.picker.el.hidden = threads.length === 0;
  }
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > TITLE_MAX ? `${line.slice(0, TITLE_MAX - 1)}…` : line;
}
