import { agentPrefixAt, parsePromptAgent } from '../../src/shared/promptAgent';
import type { AttachmentView, PanelConfig, QueuedPromptView } from '../../src/shared/protocol';
import { AttachmentsView } from './attachmentsView';
import { CompletionMenu, type CompletionItem } from './completionMenu';
import { h, iconButton, setHidden, setText } from '../kit/dom';
import { ModelPicker } from '../controls/modelPicker';
import { PromptHistory } from './promptHistory';
import { QueueView } from './queueView';
import { button } from '../kit/toolkit';
import type { UiState } from '../uiState';

const IDLE_PLACEHOLDER = 'Ask the supervisor, or @agent (Enter to send, Shift+Enter for a new line, # to attach)';
const BUSY_PLACEHOLDER = 'The thread is working: Enter queues your message as the next turn';

export interface PromptActions {
  send(text: string, agent: string | undefined, attachments: string[]): void;
  cancel(): void;
  unqueue(id: string): void;
  attach(kind: 'file' | 'selection'): void;
  detach(id: string): void;
  listModels(): void;
  chooseModel(id: string): void;
}

/** `#file` and `#selection`, typed where a word starts. */
const CONTEXT: CompletionItem[] = [
  { id: '#file', label: '#file', detail: 'Attach a workspace file…' },
  { id: '#selection', label: '#selection', detail: "Attach the editor's selection" },
];

/**
 * The chat box: Enter sends, Shift+Enter adds a line, an empty prompt sends nothing, Up in an
 * empty box recalls the last prompt. `@agent` at the start sends the turn to that profile (with
 * completion of the names), `#file` and `#selection` attach context (chips above the box). While
 * the thread works, Send turns into Stop, and what is sent then is queued by the host (the chips
 * of QueueView) and becomes the next turn once the thread is quiet; Queue does the same with the
 * mouse. Below the box: the model in use and its picker, and the attach buttons.
 * `#prompt` is a native <textarea>, not the toolkit's: its value and keys live in the page (not a
 * shadow root), so the draft, Enter handling and automation (Playwright's fill) work on it directly.
 */
export class PromptBox {
  readonly el: HTMLElement;
  readonly model: ModelPicker;
  private readonly input: HTMLTextAreaElement;
  private readonly send: HTMLElement;
  private readonly stop: HTMLElement;
  private readonly queueButton: HTMLElement;
  private readonly queue: QueueView;
  private readonly attachments: AttachmentsView;
  private readonly completions: CompletionMenu;
  private readonly hint: HTMLElement;
  private readonly history: PromptHistory;
  private agents: PanelConfig['agents'] = [];
  private brokenAgents: NonNullable<PanelConfig['brokenAgents']> = [];
  private commands: NonNullable<PanelConfig['commands']> = [];
  private busy = false;

  constructor(
    private readonly ui: UiState,
    private readonly actions: PromptActions,
  ) {
    this.input = h('textarea', {
      id: 'prompt',
      class: 'prompt-input',
      rows: 2,
      placeholder: IDLE_PLACEHOLDER,
      'aria-label': 'Prompt',
      'aria-describedby': 'prompt-hint',
    });
    this.input.value = ui.draft;
    this.history = new PromptHistory(ui);
    this.send = button({ id: 'send', label: 'Send', icon: 'send', appearance: 'primary' });
    this.stop = button({ id: 'stop', label: 'Stop', icon: 'debug-stop', appearance: 'primary' });
    this.queueButton = button({ id: 'queue-send', label: 'Queue', icon: 'clock', appearance: 'secondary' });
    this.stop.hidden = true;
    this.queueButton.hidden = true;
    this.queue = new QueueView({ unqueue: (id) => actions.unqueue(id), focusPrompt: () => this.focus() });
    this.attachments = new AttachmentsView({ detach: (id) => actions.detach(id), focusPrompt: () => this.focus() });
    this.completions = new CompletionMenu(this.input, (item) => this.complete(item));
    this.hint = h('div', { id: 'prompt-hint', class: 'prompt-hint', role: 'alert', hidden: true });
    this.model = new ModelPicker({ list: () => actions.listModels(), choose: (id) => actions.chooseModel(id) });
    const attachFile = iconButton('Attach a file (#file)', 'file-add', 'attach-file');
    attachFile.id = 'attach-file';
    attachFile.addEventListener('click', () => actions.attach('file'));
    const attachSelection = iconButton("Attach the editor's selection (#selection)", 'selection', 'attach-selection');
    attachSelection.id = 'attach-selection';
    attachSelection.addEventListener('click', () => actions.attach('selection'));
    this.el = h(
      'div',
      { class: 'prompt-box' },
      this.queue.el,
      this.attachments.el,
      h('div', { class: 'prompt-field' }, this.completions.el, this.input),
      this.hint,
      h(
        'div',
        { class: 'prompt-toolbar' },
        this.model.el,
        attachFile,
        attachSelection,
        h('span', { class: 'toolbar-spacer' }),
        this.queueButton,
        this.stop,
        this.send,
      ),
    );

    this.input.addEventListener('input', () => {
      this.ui.draft = this.input.value;
      setHidden(this.hint, true);
      this.suggest();
      this.refresh();
    });
    this.input.addEventListener('blur', () => this.completions.hide());
    this.input.addEventListener('keydown', (e) => this.onKey(e));
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

  setAttachments(items: readonly AttachmentView[]): void {
    this.attachments.set(items);
  }

  setConfig(config: PanelConfig): void {
    this.agents = config.agents;
    this.brokenAgents = config.brokenAgents ?? [];
    this.commands = config.commands ?? [];
    this.model.setModel(config.model);
  }

  focus(options?: FocusOptions): void {
    this.input.focus(options);
  }

  /** Puts text in the box to be edited (a message's Edit), the caret at its end. */
  edit(text: string): void {
    this.setValue(text);
    this.focus();
  }

  private setValue(text: string): void {
    this.input.value = text;
    this.ui.draft = text;
    this.input.setSelectionRange(text.length, text.length);
    this.refresh();
  }

  private onKey(e: KeyboardEvent): void {
    // isComposing: keys that confirm an IME composition are the IME's.
    if (e.isComposing || this.completions.handleKey(e)) return;
    if (e.key === 'Enter' && !e.shiftKey && !e.altKey) {
      e.preventDefault();
      this.submit();
      return;
    }
    const atStart = this.input.selectionStart === 0 && this.input.selectionEnd === 0;
    const recalled = this.history.recalling && this.input.value === this.history.current;
    if (e.key === 'ArrowUp' && (this.input.value === '' || (recalled && atStart))) {
      const older = this.history.older();
      if (older === undefined) return;
      e.preventDefault();
      this.setValue(older);
      this.input.setSelectionRange(0, 0);
    } else if (e.key === 'ArrowDown' && recalled && this.input.selectionStart === this.input.value.length) {
      e.preventDefault();
      this.setValue(this.history.newer() ?? '');
    }
  }

  /** Offers agent names after `@` and prompt files after `/` at the start, and `#file` / `#selection` after `#`. */
  private suggest(): void {
    const caret = this.input.selectionStart;
    const before = this.input.value.slice(0, caret);
    const agent = agentPrefixAt(this.input.value, caret);
    if (agent !== undefined) {
      const q = agent.toLowerCase();
      const items = this.agents
        .filter((a) => a.name.toLowerCase().startsWith(q) || (a.displayName ?? '').toLowerCase().startsWith(q))
        .map((a) => ({
          id: `@${a.name}`,
          label: `@${a.name}`,
          detail: a.displayName ? `${a.displayName}: ${a.description}` : a.description,
        }));
      // An agent whose file failed to load is listed too, saying which file and why (taking it says so again on Send).
      const broken = this.brokenAgents
        .filter((b) => b.name.toLowerCase().startsWith(q))
        .map((b) => ({ id: `@${b.name}`, label: `@${b.name}`, detail: `did not load: ${b.file}: ${b.why}`, broken: true }));
      return this.completions.show([...items, ...broken]);
    }
    // `/name` at the very start runs a prompt file (the engine expands it when it is sent).
    const slash = /^\/([\w.-]*)$/.exec(before);
    if (slash) {
      const q = slash[1]!.toLowerCase();
      const items = this.commands
        .filter((c) => c.name.toLowerCase().startsWith(q))
        .map((c) => ({
          id: `/${c.name}`,
          label: `/${c.name}`,
          detail: c.argumentHint ? `${c.argumentHint}: ${c.description}` : c.description,
        }));
      return this.completions.show(items);
    }
    const hash = /(^|\s)#(\w*)$/.exec(before);
    if (hash) return this.completions.show(CONTEXT.filter((c) => c.id.startsWith(`#${hash[2]}`)));
    this.completions.hide();
  }

  private complete(item: CompletionItem): void {
    const caret = this.input.selectionStart;
    const value = this.input.value;
    if (item.id.startsWith('@') || item.id.startsWith('/')) {
      const rest = value.slice(caret).replace(/^\S*\s?/, '');
      this.setValue(`${item.id} ${rest}`);
      const at = item.id.length + 1;
      this.input.setSelectionRange(at, at);
      return;
    }
    // `#file`: the token goes; the host asks which file (or takes the selection) and sends a chip.
    const start = value.slice(0, caret).search(/#\w*$/);
    this.setValue(value.slice(0, start) + value.slice(caret));
    this.input.setSelectionRange(start, start);
    this.actions.attach(item.id === '#file' ? 'file' : 'selection');
  }

  private refresh(): void {
    setHidden(this.send, this.busy);
    setHidden(this.stop, !this.busy);
    setHidden(this.queueButton, !this.busy || this.input.value.trim() === '');
    this.input.placeholder = this.busy ? BUSY_PLACEHOLDER : IDLE_PLACEHOLDER;
  }

  private submit(): void {
    const raw = this.input.value.trim();
    if (!raw) return;
    const target = parsePromptAgent(
      raw,
      this.agents.map((a) => a.name),
      this.brokenAgents,
    );
    if (!target.ok) {
      // Nothing is sent and nothing is lost: the box keeps the text, the hint says why.
      setText(this.hint, target.error);
      setHidden(this.hint, false);
      return;
    }
    this.actions.send(target.text, target.agent, this.attachments.ids);
    this.ui.remember(raw);
    this.history.reset();
    this.attachments.set([]);
    this.setValue('');
    this.completions.hide();
    this.input.focus();
  }
}
