import { h } from './dom';

/**
 * A polite live region for what a screen reader should hear without moving focus: a run that
 * ended, a copy that worked. Visually hidden. Messages of one frame are read together.
 */
export class Announcer {
  readonly el: HTMLElement;
  private pending: string[] = [];
  private frame = 0;

  constructor() {
    this.el = h('div', { id: 'announcer', class: 'sr-only', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' });
  }

  say(text: string): void {
    this.pending.push(text);
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      // New text each time, even when it repeats the last one, so it is read again.
      this.el.textContent = this.pending.join(' ');
      this.pending = [];
    });
  }
}
