import type { Host } from './vscodeApi';

/**
 * The UI state that must survive the webview being hidden and re-created: which runs the user
 * collapsed, which tool outputs are open, the draft prompt and the scroll position. Runs start
 * expanded, so only the exceptions are stored. Saved through vscode.setState (cheap, synchronous).
 */

interface Persisted {
  collapsed: string[];
  openTools: string[];
  /** Problem banners the user dismissed, by their content: a changed problem shows again. */
  dismissed: string[];
  draft: string;
  scrollTop: number;
}

const MAX_IDS = 2000;

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

function parse(raw: unknown): Persisted {
  const empty: Persisted = { collapsed: [], openTools: [], dismissed: [], draft: '', scrollTop: 0 };
  if (typeof raw !== 'object' || raw === null) return empty;
  const r = raw as Record<string, unknown>;
  return {
    collapsed: isStringArray(r.collapsed) ? r.collapsed : [],
    openTools: isStringArray(r.openTools) ? r.openTools : [],
    dismissed: isStringArray(r.dismissed) ? r.dismissed : [],
    draft: typeof r.draft === 'string' ? r.draft : '',
    scrollTop: typeof r.scrollTop === 'number' ? r.scrollTop : 0,
  };
}

export class UiState {
  private readonly collapsed: Set<string>;
  private readonly openTools: Set<string>;
  private dismissed: Set<string>;
  private draftText: string;
  private scroll: number;
  private saveTimer = 0;

  constructor(private readonly host: Host) {
    const saved = parse(host.loadState());
    this.collapsed = new Set(saved.collapsed);
    this.openTools = new Set(saved.openTools);
    this.dismissed = new Set(saved.dismissed);
    this.draftText = saved.draft;
    this.scroll = saved.scrollTop;
  }

  isCollapsed(runId: string): boolean {
    return this.collapsed.has(runId);
  }

  setCollapsed(runId: string, collapsed: boolean): void {
    if (collapsed === this.collapsed.has(runId)) return;
    if (collapsed) this.collapsed.add(runId);
    else this.collapsed.delete(runId);
    this.save();
  }

  isToolOpen(toolCallId: string): boolean {
    return this.openTools.has(toolCallId);
  }

  setToolOpen(toolCallId: string, open: boolean): void {
    if (open === this.openTools.has(toolCallId)) return;
    if (open) this.openTools.add(toolCallId);
    else this.openTools.delete(toolCallId);
    this.save();
  }

  isDismissed(key: string): boolean {
    return this.dismissed.has(key);
  }

  dismiss(key: string): void {
    if (this.dismissed.has(key)) return;
    this.dismissed.add(key);
    this.save();
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
      collapsed: newest(this.collapsed),
      openTools: newest(this.openTools),
      dismissed: newest(this.dismissed),
      draft: this.draftText,
      scrollTop: this.scroll,
    } satisfies Persisted);
  }
}

/** Sets keep insertion order; the newest ids are the ones worth keeping. */
function newest(ids: Set<string>): string[] {
  const all = [...ids];
  return all.length > MAX_IDS ? all.slice(all.length - MAX_IDS) : all;
}
