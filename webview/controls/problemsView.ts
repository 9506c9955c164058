import type { ConfigProblem, PanelConfig, ProblemLocation } from '../../src/shared/protocol';
import { BANNER_LINE_CHARS, bannerParts } from '../../src/shared/bannerText';
import { codicon, h, setHidden, setText } from '../kit/dom';
import type { UiState } from '../uiState';

/**
 * `#problems`: what stops the panel from working well (config problems, an untrusted workspace)
 * and the host's notices. A config problem links to where it is fixed and can be dismissed; it
 * stays dismissed (through the webview's saved state) until it changes. Hidden when empty.
 */

const MAX_NOTICES = 5;
const UNTRUSTED =
  'This workspace is not trusted: agents can read files but not change them or run commands, and agent profiles and model settings defined in it are ignored.';

export class ProblemsView {
  readonly el: HTMLElement;
  private readonly configList: HTMLElement;
  private readonly notices: HTMLElement;
  private config: PanelConfig | undefined;
  /** The conversation shown (null: a new one), whose notices show. */
  private threadId: string | null = null;

  constructor(
    private readonly ui: UiState,
    private readonly actions: { openLocation(location: ProblemLocation): void },
  ) {
    this.configList = h('div', { class: 'problems-config' });
    this.notices = h('div', { class: 'problems-notices' });
    this.el = h(
      'section',
      { id: 'problems', 'aria-label': 'Problems', 'aria-live': 'polite', hidden: true },
      this.configList,
      this.notices,
    );
  }

  setConfig(config: PanelConfig): void {
    this.config = config;
    const shown: ConfigProblem[] = [...config.problems];
    if (!config.trusted) shown.push({ message: UNTRUSTED, severity: 'information' });
    const keys = new Set(shown.map(problemKey));
    this.ui.keepDismissed(keys);
    this.configList.replaceChildren(...shown.filter((p) => !this.ui.isDismissed(problemKey(p))).map((p) => this.problem(p)));
    this.refresh();
  }

  /**
   * A notice; with a threadId it belongs to that conversation: shown only while it is, hidden
   * while another one is, and shown again on the way back.
   */
  addNotice(level: 'info' | 'error', message: string, threadId?: string): void {
    const el = line(level === 'error' ? 'error' : 'info', level === 'error' ? 'error' : 'info', message);
    el.querySelector('.problem-details')!.before(
      dismissButton('Dismiss', () => {
        el.remove();
        this.refresh();
      }),
    );
    if (threadId !== undefined) el.dataset.threadId = threadId;
    this.notices.append(el);
    // The oldest goes first, counted per conversation (a hidden one's notices do not push these out).
    const same = this.noticesOf(threadId);
    for (const old of same.slice(0, Math.max(0, same.length - MAX_NOTICES))) old.remove();
    this.refresh();
  }

  /** Another conversation is shown: only its notices and those of no conversation show. */
  showThread(threadId: string | null): void {
    this.threadId = threadId;
    this.refresh();
  }

  private noticesOf(threadId: string | undefined): HTMLElement[] {
    return ([...this.notices.children] as HTMLElement[]).filter((el) => el.dataset.threadId === threadId);
  }

  private problem(p: ConfigProblem): HTMLElement {
    const kind = p.severity === 'error' ? 'error' : 'notice';
    const icon =
      p.severity === 'error' ? 'error' : p.severity === 'warning' ? 'warning' : p.message === UNTRUSTED ? 'workspace-untrusted' : 'info';
    const el = line(kind, icon, p.message);
    const location = p.location;
    if (location && (location.path || location.setting)) {
      const where = placeName(location);
      const open = h('button', { type: 'button', class: 'problem-link', title: `Open ${where}` }, `Open ${where}`);
      open.addEventListener('click', () => this.actions.openLocation(location));
      el.querySelector('.problem-text')!.after(open);
    }
    el.querySelector('.problem-details')!.before(
      dismissButton('Dismiss this problem', () => {
        this.ui.dismiss(problemKey(p));
        if (this.config) this.setConfig(this.config);
      }),
    );
    return el;
  }

  private refresh(): void {
    let shown = 0;
    for (const el of this.notices.children as HTMLCollectionOf<HTMLElement>) {
      const hidden = el.dataset.threadId !== undefined && el.dataset.threadId !== this.threadId;
      setHidden(el, hidden);
      if (!hidden) shown++;
    }
    setHidden(this.el, this.configList.children.length + shown === 0);
  }
}

/** What a problem is: the same key means the same problem, a changed one is a new key. */
function problemKey(p: ConfigProblem): string {
  return JSON.stringify([p.severity, p.message, p.location?.path ?? '', p.location?.line ?? 0, p.location?.setting ?? '']);
}

function placeName(location: ProblemLocation): string {
  if (location.path) {
    const name = location.path.split(/[\\/]/).slice(-2).join('/');
    return location.line ? `${name}:${location.line}` : name;
  }
  return 'user settings';
}

function dismissButton(label: string, onClick: () => void): HTMLElement {
  const button = h('button', { class: 'dismiss', type: 'button', 'aria-label': label, title: label }, codicon('close'));
  button.addEventListener('click', onClick);
  return button;
}

/**
 * One banner: its first sentence on one line, and a "Details" control that opens the rest (or the
 * whole first sentence, when it is too long for the line) beneath it.
 */
function line(kind: 'error' | 'notice' | 'info', icon: string, text: string): HTMLElement {
  const { line: first, rest } = bannerParts(text);
  const lead = h('span', { class: 'problem-text', title: text }, first);
  const details = h('div', { class: 'problem-details', hidden: true }, rest);
  const el = h('div', { class: `problem problem-${kind}`, role: kind === 'error' ? 'alert' : 'status' }, codicon(icon), lead, details);
  if (rest || first.length > BANNER_LINE_CHARS) {
    const toggle = h('button', { type: 'button', class: 'problem-more', 'aria-expanded': 'false' }, 'Details');
    toggle.addEventListener('click', () => {
      const open = toggle.getAttribute('aria-expanded') !== 'true';
      toggle.setAttribute('aria-expanded', String(open));
      setText(toggle, open ? 'Less' : 'Details');
      el.classList.toggle('expanded', open);
      setHidden(details, !open || !rest);
    });
    lead.after(toggle);
    el.classList.add('has-details');
  }
  return el;
}
