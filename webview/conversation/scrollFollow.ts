import type { UiState } from '../uiState';

/**
 * Where the conversation is scrolled. New content is followed while the user stays at the
 * bottom, and always when a new turn starts (the user just sent it); when a turn ends, the view
 * goes to its answer's start, unless the user scrolled away. Whether the user is at the bottom is
 * kept from scroll events, so a frame never has to read layout before it writes.
 */
export class ScrollFollow {
  private stuck = true;
  private restored = false;

  constructor(
    private readonly scroller: HTMLElement,
    private readonly ui: UiState,
  ) {
    scroller.addEventListener(
      'scroll',
      () => {
        this.ui.scrollTop = scroller.scrollTop;
        this.measure();
      },
      { passive: true },
    );
  }

  follow(newTurn: boolean): void {
    if (newTurn) this.stuck = true;
    if (this.stuck) this.scroller.scrollTop = this.scroller.scrollHeight;
  }

  /** The answer's start at the top of the view, when following and it is above it; following
   * stops there, so a background run still streaming below does not pull the view away. */
  showStart(answer: HTMLElement): void {
    if (!this.stuck) return;
    const offset = answer.getBoundingClientRect().top - this.scroller.getBoundingClientRect().top;
    if (offset < 0) this.scroller.scrollTop += offset;
    else this.scroller.scrollTop = this.scroller.scrollHeight;
    this.stuck = false;
  }

  /** Back where the user was when the webview was re-created; else at the thread's latest turn. */
  afterReset(lastTurn: HTMLElement | undefined, turns: number): void {
    // Whether the new content fits is known after this frame's layout: read it then, not now.
    requestAnimationFrame(() => this.measure());
    if (!this.restored) {
      this.restored = true;
      if (this.ui.scrollTop) {
        this.scroller.scrollTop = this.ui.scrollTop;
        return;
      }
    }
    // A single turn starts at the top, where the view already is.
    if (turns > 1) lastTurn?.scrollIntoView({ block: 'start' });
  }

  private measure(): void {
    const s = this.scroller;
    this.stuck = s.scrollTop + s.clientHeight >= s.scrollHeight - 24;
  }
}
