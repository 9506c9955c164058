import { oneLine } from '../../src/shared/oneLine';
import type { ThreadSummary } from '../../src/shared/protocol';
import { codicon, h, setAttr, setHidden, setText } from '../kit/dom';
import { ThreadListView, type ThreadListActions } from '../threads/threadListView';
import type { PanelView } from '../uiState';

/**
 * The top bar: the thread's title (one line, cut with an ellipsis, whole in its tooltip), the
 * Runs toggle (the whole thread's runs, with how many still work) and the Threads button, which
 * opens the thread list under it. New Thread is the view title's own "+": not repeated here.
 */

export interface HeaderActions extends Omit<ThreadListActions, 'closed'> {
  toggleRuns(): void;
}

export class HeaderView {
  readonly el: HTMLElement;
  readonly list: ThreadListView;
  private readonly title: HTMLElement;
  private readonly runsButton: HTMLButtonElement;
  private readonly runsBadge: HTMLElement;
  private readonly threadsButton: HTMLButtonElement;

  constructor(actions: HeaderActions) {
    this.title = h('h1', { id: 'thread-title', class: 'thread-title' }, 'New thread');
    this.runsBadge = h('span', { class: 'badge runs-badge', hidden: true });
    this.runsButton = h(
      'button',
      {
        type: 'button',
        id: 'runs-toggle',
        class: 'icon-button header-button',
        'aria-pressed': 'false',
        'aria-label': 'Runs: show every run of this thread',
        title: 'Runs: show every run of this thread',
      },
      codicon('list-tree'),
      this.runsBadge,
    );
    this.runsButton.addEventListener('click', () => actions.toggleRuns());
    this.threadsButton = h(
      'button',
      {
        type: 'button',
        id: 'threads-button',
        class: 'icon-button header-button',
        'aria-expanded': 'false',
        'aria-controls': 'thread-list',
        'aria-label': 'Threads: open another thread, rename or delete one',
        title: 'Threads',
      },
      codicon('history'),
    );
    this.list = new ThreadListView({
      ...actions,
      closed: () => {
        this.syncListButton();
        this.threadsButton.focus();
      },
    });
    this.threadsButton.addEventListener('click', () => {
      if (this.list.open) this.list.hide();
      else this.list.show();
      this.syncListButton();
    });
    this.el = h('header', { class: 'header' }, this.title, h('div', { class: 'header-actions' }, this.runsButton, this.threadsButton));
  }

  /** `fallback` names a thread the host has not listed yet (its first prompt). */
  update(threads: readonly ThreadSummary[], threadId: string | null, fallback: string): void {
    const listed = threadId ? threads.find((t) => t.id === threadId) : undefined;
    const title = oneLine(listed?.title || fallback || 'New thread', 200);
    setText(this.title, title);
    this.title.title = title;
    this.list.update(threads, threadId);
  }

  /** The view shown and how many runs still work (a badge, so a background run is not lost). */
  setRuns(view: PanelView, running: number): void {
    setAttr(this.runsButton, 'aria-pressed', String(view === 'runs'));
    const label = `${view === 'runs' ? 'Back to the chat' : 'Runs: show every run of this thread'}${running ? ` (${running} running)` : ''}`;
    setAttr(this.runsButton, 'aria-label', label);
    setAttr(this.runsButton, 'title', label);
    setText(this.runsBadge, String(running));
    setHidden(this.runsBadge, running === 0);
  }

  private syncListButton(): void {
    setAttr(this.threadsButton, 'aria-expanded', String(this.list.open));
  }
}
