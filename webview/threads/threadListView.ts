import { oneLine } from '../../src/shared/oneLine';
import type { ThreadSummary } from '../../src/shared/protocol';
import { relativeTime } from '../../src/shared/relativeTime';
import { h, iconButton, setHidden, setText } from '../kit/dom';
import { runIconClass, runStateLabel } from '../conversation/stateIcons';

/**
 * `#thread-list`: the workspace's threads under the header, newest first, each with its title,
 * when it was last active, its state and its number of turns; searched by title; renamed in place
 * (Enter saves, Escape does not) and deleted (the host asks first). Escape closes the list.
 */

export interface ThreadListActions {
  openThread(threadId: string): void;
  renameThread(threadId: string, title: string): void;
  deleteThread(threadId: string): void;
  /** The list closed from inside (Escape, a thread opened): focus goes back to its button. */
  closed(): void;
}

const MAX_ROWS = 200;

export class ThreadListView {
  readonly el: HTMLElement;
  private readonly search: HTMLInputElement;
  private readonly rows: HTMLUListElement;
  private readonly empty: HTMLElement;
  private threads: readonly ThreadSummary[] = [];
  /** The list as the host last sent it (`threads` may hold a rename not confirmed yet). */
  private given: readonly ThreadSummary[] | undefined;
  private current: string | null = null;

  constructor(private readonly actions: ThreadListActions) {
    this.search = h('input', {
      id: 'thread-search',
      type: 'search',
      class: 'thread-search',
      placeholder: 'Search threads by title',
      'aria-label': 'Search threads by title',
      spellcheck: 'false',
    });
    this.rows = h('ul', { class: 'thread-rows', 'aria-label': 'Threads' });
    this.empty = h('p', { class: 'thread-empty', role: 'status' });
    this.el = h('section', { id: 'thread-list', 'aria-label': 'Threads', hidden: true }, this.search, this.rows, this.empty);
    this.search.addEventListener('input', () => this.render());
    this.el.addEventListener('keydown', (e) => this.onKey(e));
  }

  get open(): boolean {
    return !this.el.hidden;
  }

  show(): void {
    setHidden(this.el, false);
    this.render();
    this.search.focus();
  }

  hide(): void {
    setHidden(this.el, true);
  }

  update(threads: readonly ThreadSummary[], current: string | null): void {
    // Called every frame the panel draws: only a new list (a `threads` message) or thread redraws it.
    if (threads === this.given && current === this.current) return;
    this.given = threads;
    this.threads = threads;
    this.current = current;
    // Rebuilding while the user renames a row would throw the edit away: wait until it is done.
    if (this.open && !this.rows.querySelector('.thread-rename-input')) this.render();
  }

  private render(): void {
    const query = this.search.value.trim().toLowerCase();
    const now = Date.now();
    const shown = [...this.threads]
      .sort((a, b) => b.updatedAt - a.updatedAt)
      .filter((t) => !query || (t.title || 'Untitled thread').toLowerCase().includes(query))
      .slice(0, MAX_ROWS);
    this.rows.replaceChildren(...shown.map((t) => this.row(t, now)));
    const message =
      this.threads.length === 0
        ? 'No threads yet: what you send starts one.'
        : shown.length === 0
          ? `No thread title contains “${this.search.value.trim()}”.`
          : '';
    setText(this.empty, message);
    setHidden(this.empty, message === '');
  }

  private row(t: ThreadSummary, now: number): HTMLElement {
    const title = oneLine(t.title || 'Untitled thread', 120);
    const meta = [
      relativeTime(t.updatedAt, now),
      statusWord(t.status),
      t.runCount === undefined ? '' : `${t.runCount} ${t.runCount === 1 ? 'turn' : 'turns'}`,
    ]
      .filter(Boolean)
      .join(' · ');
    const open = h(
      'button',
      { type: 'button', class: 'thread-open', title: title },
      h('i', { class: statusIcon(t.status), 'aria-hidden': 'true' }),
      h(
        'span',
        { class: 'thread-row-text' },
        h('span', { class: 'thread-row-title' }, title),
        h('span', { class: 'thread-row-meta' }, meta),
      ),
    );
    open.addEventListener('click', () => {
      if (t.id !== this.current) this.actions.openThread(t.id);
      this.hide();
      this.actions.closed();
    });
    const rename = iconButton(`Rename “${title}”`, 'edit', 'thread-rename');
    rename.addEventListener('click', () => this.startRename(open, t));
    const remove = iconButton(`Delete “${title}”`, 'trash', 'thread-delete');
    remove.addEventListener('click', () => this.actions.deleteThread(t.id));
    const li = h('li', { class: 'thread-row', 'data-thread-id': t.id }, open, rename, remove);
    if (t.id === this.current) li.setAttribute('aria-current', 'true');
    return li;
  }

  private startRename(open: HTMLElement, t: ThreadSummary): void {
    const input = h('input', {
      type: 'text',
      class: 'thread-rename-input',
      value: t.title,
      'aria-label': 'New title (Enter to save, Escape to cancel)',
      maxlength: 200,
    });
    open.replaceWith(input);
    input.select();
    let done = false;
    const finish = (save: boolean) => {
      if (done) return;
      done = true;
      const title = input.value.trim();
      if (save && title && title !== t.title) {
        this.actions.renameThread(t.id, title);
        // Shown at once; the host's next thread list says what was saved.
        this.threads = this.threads.map((x) => (x.id === t.id ? { ...x, title } : x));
      }
      this.render();
      this.rows.querySelector<HTMLElement>(`[data-thread-id="${CSS.escape(t.id)}"] .thread-rename`)?.focus();
    };
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        e.preventDefault();
        finish(true);
      } else if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        finish(false);
      }
    });
    input.addEventListener('blur', () => finish(false));
    input.focus();
  }

  /** Up and Down move between the rows (and from the search box to the first); Escape closes. */
  private onKey(e: KeyboardEvent): void {
    if (e.key === 'Escape') {
      e.preventDefault();
      this.hide();
      this.actions.closed();
      return;
    }
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const opens = [...this.rows.querySelectorAll<HTMLElement>('.thread-open')];
    const at = opens.indexOf(document.activeElement as HTMLElement);
    const fromSearch = document.activeElement === this.search;
    if (at < 0 && !fromSearch) return;
    e.preventDefault();
    const next = fromSearch
      ? e.key === 'ArrowDown'
        ? opens[0]
        : undefined
      : e.key === 'ArrowDown'
        ? opens[at + 1]
        : (opens[at - 1] ?? this.search);
    next?.focus();
  }
}

function statusWord(status: ThreadSummary['status']): string {
  if (status === undefined) return '';
  return status === 'empty' ? 'no turns yet' : runStateLabel(status);
}

function statusIcon(status: ThreadSummary['status']): string {
  if (status === undefined || status === 'empty') return 'codicon codicon-circle-large-outline state-icon';
  return runIconClass(status);
}
