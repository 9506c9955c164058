import type { QueuedPromptView } from '../src/shared/protocol';
import { h, setHidden } from './dom';
import { QueueView } from './queueView';
import { button } from './toolkit';
import type { UiState } from './uiState';

const IDLE_PLACEHOLDER = 'Ask the supervisor (Enter to send, Shift+Enter for a new line)';
const BUSY_PLACEHOLDER = 'The thread is working: Enter queues your message as the next turn';

/**
 * The prompt: Enter sends, Shift+Enter adds a line, an empty prompt sends nothing. While the thread
 * works, Send turns into Stop, and what the user sends then is queued by the host (the chips above
 * the box) and becomes the next turn once the thread is quiet; Queue does the same with the mouse.
 * `#prompt` is a native <textarea>, not the toolkit's: its value and keys live in the page (not a
 * shadow root), so the draft, Enter handling and automation (Playwright's fill) work on it directly.
 */
export class PromptBox {
  readonly el: HTMLElement;
  private readonly input: HTMLTextAreaElement;
  private readonly send: HTMLElement;
  private readonly stop: HTMLElement;
  private readonly queueButton: HTMLElement;
  private readonly queue: QueueView;
  private busy = false;

  constructor(
    private readonly ui: UiState,
    private readonly actions: { send(text: string): void; cancel(): void; unqueue(id: string): void },
  ) {
    this.input = h('textarea', { id: 'prompt', class: 'prompt-input', rows: 2, placeholder: IDLE_PLACEHOLDER, 'aria-label': 'Prompt' });
    this.input.value = ui.draft;
    this.send = button({ id: 'send', label: 'Send', icon: 'send', appearance: 'primary' });
    this.stop = button({ id: 'stop', label: 'Stop', icon: 'debug-stop', appearance: 'primary' });
    this.queueButton = button({ id: 'queue-send', label: 'Queue', icon: 'clock', appearance: 'secondary' });
    this.stop.hidden = true;
    this.queueButton.hidden = true;
    this.queue = new QueueView({ unqueue: (id) => actions.unqueue(id), focusPrompt: () => this.focus() });
    this.el = h('div', { class: 'prompt-box' }, this.queue.el, this.input, h('div', { class: 'prompt-actions' }, this.queueButton, this.stop, this.send));

    this.input.addEventListener('input', () => {
      this.ui.draft = this.input.value;
      this.refresh();
    });
    this.input.addEventListener('keydown', (e) => {
      // isComposing: Enter that confirms an IME composition is not a send.
      if (e.key === 'Enter' && !e.shiftKey && !e.altKey && !e.isComposing) {
        e.preventDefault();
        this.submit();
      }
    });
    this.send.addEventListener('click', () => this.submit());
    this.queueButton.addEventListener('click', () => this.submit());
    this.stop.addEventListener('click', () => this.actions.cancel());
  }

  setBusy(busy: boolean): void {
    this.busy = busy;
    this.refresh();
  }

  setQueued(queued: readonly QueuedPromptView[]): void {
    this.queue.set(queued);
  }

  focus(): void {
    this.input.focus();
  }

  private refresh(): void {
    setHidden(this.send, this.busy);
    setHidden(this.stop, !this.busy);
    setHidden(this.queueButton, !this.busy || this.input.value.trim() === '');
    this.input.placeholder = this.busy ? BUSY_PLACEHOLDER : IDLE_PLACEHOLDER;
  }

  private submit(): void {
    const text = this.input.value.trim();
    if (!text) return;
    this.actions.send(text);
    this.input.value = '';
    this.ui.draft = '';
    this.refresh();
    this.input.focus();
  }
}
