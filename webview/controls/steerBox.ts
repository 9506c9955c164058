import { h, setHidden } from '../kit/dom';
import { button } from '../kit/toolkit';

/**
 * The message box on a working subagent's node: what the user types reaches that run before its
 * next model call (steerRun), marked as coming from the user. Enter sends, Shift+Enter adds a line.
 * The run's timeline shows the message once the engine has taken it (run.message).
 */
export class SteerBox {
  readonly el: HTMLElement;
  private readonly input: HTMLTextAreaElement;

  constructor(agent: string, send: (text: string) => void) {
    this.input = h('textarea', {
      class: 'steer-input',
      rows: 1,
      placeholder: `Tell ${agent} something while it works (Enter to send)`,
      'aria-label': `Message to ${agent}`,
    });
    const sendButton = button({ label: `Send to ${agent}`, icon: 'send', appearance: 'icon', className: 'steer-send' });
    this.el = h('div', { class: 'steer', hidden: true }, this.input, sendButton);
    const submit = () => {
      const text = this.input.value.trim();
      if (!text) return;
      send(text);
      this.input.value = '';
    };
    this.input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey && !e.altKey && !e.isComposing) {
        e.preventDefault();
        submit();
      }
    });
    sendButton.addEventListener('click', submit);
  }

  /** Shown only while the run can still take a message. */
  setOpen(open: boolean): void {
    setHidden(this.el, !open);
  }
}
