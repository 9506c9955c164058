import type { Host } from './kit/vscodeApi';

/**
 * The UI state that must survive the webview being hidden and re-created: which runs the user
 * expanded, which tool calls are open, the draft prompt, the prompts sent (for Up-arrow), the
 * view (the chat or the thread's runs) and the scroll position. Runs start collapsed to their one
 * live line, so only the exceptions are stored. Saved through vscode.setState (cheap, synchronous).
 */

export type PanelView = 'chat' | 'runs';

interface Persisted {
  expanded: string[];
  openTools: string[];
  /** Problem banners the user dismissed, by their content: a changed problem shows again. */
  dismissed: string[];
  draft: string;
  history: string[];
  view: PanelView;
  scrollTop: number;
}

const MAX_IDS = 2000;
const MAX_HISTORY = 50;

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

function parse(raw: unknown): Persisted {
  const empty: Persisted = { expanded: [], openTools: [], dismissed: [], draft: '', history: [], view: 'chat', scrollTop: 0 };
  if (typeof raw !== 'object' || raw === null) return empty;
  const r = raw as Record<string, unknown>;
  return {
    expanded: isStringArray(r.expanded) ? r.expanded : [],
    openTools: isStringArray(r.openTools) ? r.openTools : [],
    dismissed: isStringArray(r.dismissed) ? r.dismissed : [],
    draft: typeof r.draft === 'string' ? r.draft : '',
    history: isStringArray(r.history) ? r.history.slice(-MAX_HISTORY) : [],
    view: r.view === 'runs' ? 'runs' : 'chat',
    scrollTop: typeof r.scrollTop === 'number' ? r.scrollTop : 0,
  };
}

export class UiState {
  private readonly expanded: Set<string>;
  private readonly openTools: Set<string>;
  private dismissed: Set<string>;
  private draftText: string;
  private sent: string[];
  private shownView: PanelView;
  private scroll: number;
  private saveTimer = 0;

  constructor(private readonly host: Host) {
    const saved = parse(host.loadState());
    this.expanded = new Set(saved.expanded);
    this.openTools = new Set(saved.openTools);
    this.dismissed = new Set(saved.dismissed);
    this.draftText = saved.draft;
    this.sent = saved.history;
    this.shownView = saved.view;
    this.scroll = saved.scrollTop;
  }

  isExpanded(runId: string): boolean {
    return this.expanded.has(runId);
  }

  setExpanded(runId: string, expanded: boolean): void {
    if (toggle(this.expanded, runId, expanded)) this.save();
  }

  isToolOpen(toolCallId: string): boolean {
    return this.openTools.has(toolCallId);
  }

  setToolOpen(toolCallId: string, open: boolean): void {
    if (toggle(this.openTools, toolCallId, open)) this.save();
  }

  isDismissed(key: string): boolean {
    return this.dismissed.has(key);
  }

  dismiss(key: string): void {
    if (toggle(this.dismissed, key, true)) this.save();
  }

  /** Forgets dismissals of problems that are gone, so one that comes back later shows again. */
  keepDismissed(current: ReadonlySet<string>): void {
    const kept = new Set([...this.dismissed].filter((k) => current.has(k)));
    if (kept.size === this.dismissed.size) return;
    this.dismissed = kept;
    this.save();
  }

  get draft(): string {
    return this.draftText;
  }

  set draft(text: string) {
    this.draftText = text;
    this.save();
  }

  /** Prompts sent from this panel, oldest first (the same one twice in a row is kept once). */
  get history(): readonly string[] {
    return this.sent;
  }

  remember(prompt: string): void {
    if (this.sent[this.sent.length - 1] === prompt) return;
    this.sent = [...this.sent, prompt].slice(-MAX_HISTORY);
    this.save();
  }

  get view(): PanelView {
    return this.shownView;
  }

  set view(view: PanelView) {
    this.shownView = view;
    this.save();
  }

  get scrollTop(): number {
    return this.scroll;
  }

  /** Scrolling fires many events: saved at most every 200 ms. */
  set scrollTop(value: number) {
    this.scroll = value;
    if (this.saveTimer) return;
    this.saveTimer = window.setTimeout(() => {
      this.saveTimer = 0;
      this.save();
    }, 200);
  }

  // Synchronous: the webview may be disposed right after it is hidden, with no later chance to save.
  private save(): void {
    this.host.saveState({
      expanded: newest(this.expanded),
      openTools: newest(this.openTools),
      dismissed: newest(this.dismissed),
      draft: this.draftText,
      history: this.sent,
      view: this.shownView,
      scrollTop: this.scroll,
    } satisfies Persisted);
  }
}

/** Adds or removes `id`; true when that changed the set. */
function toggle(set: Set<string>, id: string, on: boolean): boolean {
  if (on === set.has(id)) return false;
  if (on) set.add(id);
  else set.delete(id);
  return true;
}

/** Sets keep insertion order; the newest ids are the ones worth keeping. */
function newest(ids: Set<string>): string[] {
  const all = [...ids];
  return all.length > MAX_IDS ? all.slice(all.length - MAX_IDS) : all;
}
