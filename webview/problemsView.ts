import type { PanelConfig } from '../src/shared/protocol';
import { codicon, h, setHidden } from './dom';

/**
 * `#problems`: what stops the panel from working well (config problems, an untrusted workspace)
 * and the host's notices. Hidden when there is nothing to say.
 */

const MAX_NOTICES = 5;

export class ProblemsView {
  readonly el: HTMLElement;
  private readonly configList: HTMLElement;
  private readonly notices: HTMLElement;

  constructor() {
    this.configList = h('div', { class: 'problems-config' });
    this.notices = h('div', { class: 'problems-notices' });
    this.el = h('section', { id: 'problems', 'aria-label': 'Problems', 'aria-live': 'polite', hidden: true }, this.configList, this.notices);
  }

  setConfig(config: PanelConfig): void {
    const lines = config.problems.map((p) => (p.severity === 'error' ? line('error', 'error', p.message) : line('notice', p.severity === 'warning' ? 'warning' : 'info', p.message)));
    if (!config.trusted) {
      lines.push(line('notice', 'workspace-untrusted', 'This workspace is not trusted: agents can read files but not change them or run commands, and agent profiles and model settings defined in it are ignored.'));
    }
    this.configList.replaceChildren(...lines);
    this.refresh();
  }

  /** A notice; with a threadId it belongs to that conversation and goes when another is shown. */
  addNotice(level: 'info' | 'error', message: string, threadId?: string): void {
    const dismiss = h('button', { class: 'dismiss', type: 'button', 'aria-label': 'Dismiss', title: 'Dismiss' }, codicon('close'));
    const el = line(level === 'error' ? 'error' : 'info', level === 'error' ? 'error' : 'info', message, dismiss);
    if (threadId !== undefined) el.dataset.threadId = threadId;
    dismiss.addEventListener('click', () => {
      el.remove();
      this.refresh();
    });
    this.notices.append(el);
    while (this.notices.children.length > MAX_NOTICES) this.notices.firstElementChild!.remove();
    this.refresh();
  }

  /** Another conversation is shown: notices about any other one go. */
  showThread(threadId: string | null): void {
    for (const el of [...this.notices.children] as HTMLElement[]) {
      if (el.dataset.threadId !== undefined && el.dataset.threadId !== threadId) el.remove();
    }
    this.refresh();
  }

  private refresh(): void {
    setHidden(this.el, this.configList.children.length + this.notices.children.length === 0);
  }
}

function line(kind: 'error' | 'notice' | 'info', icon: string, text: string, ...extra: Node[]): HTMLElement {
  return h('div', { class: `problem problem-${kind}`, role: kind === 'error' ? 'alert' : 'status' }, codicon(icon), h('span', { class: 'problem-text' }, text), ...extra);
}
