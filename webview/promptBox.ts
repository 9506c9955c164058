import { h } from './dom';
import { button } from './toolkit';
import type { UiState } from './uiState';

/**
 * The prompt: Enter sends, Shift+Enter adds a line, an empty prompt sends nothing; Stop shows
 * while the thread is busy. `#prompt` is a native <textarea>, not the toolkit's: its value and
 * keys live in the page (not a shadow root), so the draft, Enter handling and automation
 * (Playwright's fill) work on the element itself.
 */
export class PromptBox {
  readonly el: HTMLElement;
  private readonly input: HTMLTextAreaElement;
  private readonly stop: HTMLElement;

  constructor(
    private readonly ui: UiState,
    private readonly actions: { send(text: string): void; cancel(): void },
  ) {
    this.input = h('textarea', {
      id: 'prompt',
      class: 'prompt-input',
      rows: 2,
      placeholder: 'Ask the supervisor (Enter to send, Shift+Enter for a new line)',
      'aria-label': 'Prompt',
    });
    this.input.value = ui.draft;
    const send = button({ id: 'send', label: 'Send', icon: 'send', appearance: 'primary' });
    this.stop = button({ id: 'stop', label: 'Stop', icon: 'debug-stop', appearance: 'secondary' });
    this.stop.hidden = true;
    this.el = h('div', { class: 'prompt-box' }, this.input, h('div', { class: 'prompt-actions' }, this.stop, send));

    this.input.addEventListener('input', () => (this.ui.draft = this.input.value));
    this.input.addEventListener('keydown', (e) => {
      // isComposing: Enter that confirms an IME composition is not a send.
      if (e.key === 'Enter' && !e.shiftKey && !e.altKey && !e.isComposing) {
        e.preventDefault();
        this.submit();
      }
    });
    send.addEventListener('click', () => this.submit());
    this.stop.addEventListener('click', () => this.actions.cancel());
  }

  setBusy(busy: boolean): void {
    this.stop.hidden = !busy;
  }

  focus(): void {
    this.input.focus();
  }

  private submit(): void {
    const text = this.input.value.trim();
    if (!text) return;
    this.actions.send(text);
    this.input.value = '';
    this.ui.draft = '';
    this.input.focus();
  }
}
