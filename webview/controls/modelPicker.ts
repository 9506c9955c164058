import { modelLabel } from '../../src/shared/modelLabel';
import type { ModelChoice } from '../../src/shared/protocol';
import { codicon, h, setAttr, setHidden, setText } from '../kit/dom';
import { MODEL_GROUPS } from './modelChoiceView';

/**
 * The model in use, named in the prompt box ("Demo (scripted)", "gpt-4.1 (OpenAI)"), and a picker
 * that offers what the first-run chooser offers: it asks the host (`listModels`), lists the
 * `modelChoices` by group, and sends back only the id of a pick (`chooseModel`); the host writes
 * the setting. Up and Down move in the list, Escape closes it.
 */
export class ModelPicker {
  readonly el: HTMLElement;
  private readonly button: HTMLButtonElement;
  private readonly label: HTMLElement;
  private readonly menu: HTMLElement;
  private readonly body: HTMLElement;

  constructor(private readonly actions: { list(): void; choose(id: string): void }) {
    this.label = h('span', { class: 'model-label' }, 'No model');
    this.button = h(
      'button',
      {
        type: 'button',
        id: 'model-picker',
        class: 'model-picker-button',
        'aria-haspopup': 'true',
        'aria-expanded': 'false',
        'aria-controls': 'model-menu',
      },
      codicon('sparkle'),
      this.label,
      codicon('chevron-down'),
    );
    this.body = h('div', { class: 'model-menu-body' });
    this.menu = h(
      'div',
      { id: 'model-menu', class: 'popup-menu', role: 'group', 'aria-label': 'Choose a model', hidden: true },
      h('div', { class: 'popup-title' }, 'Choose a model'),
      this.body,
    );
    this.el = h('div', { class: 'model-picker' }, this.menu, this.button);
    this.button.addEventListener('click', () => (this.open ? this.close(false) : this.show()));
    this.menu.addEventListener('keydown', (e) => this.onKey(e));
    this.el.addEventListener('focusout', (e) => {
      if (this.open && !this.el.contains(e.relatedTarget as Node | null)) this.close(false);
    });
    this.setModel('');
  }

  get open(): boolean {
    return !this.menu.hidden;
  }

  setModel(spec: string): void {
    const label = modelLabel(spec);
    setText(this.label, label);
    const name = `Model: ${label}${spec && label !== spec ? ` (${spec})` : ''}. Choose another`;
    setAttr(this.button, 'aria-label', name);
    this.button.title = name;
  }

  setChoices(choices: readonly ModelChoice[], notes: readonly string[]): void {
    if (!this.open) return;
    const groups = MODEL_GROUPS.flatMap(({ group, title }) => {
      const mine = choices.filter((c) => c.group === group);
      if (mine.length === 0) return [];
      return [
        h(
          'div',
          { class: 'popup-group', 'data-group': group },
          h('div', { class: 'popup-group-title' }, title),
          ...mine.map((c) => this.option(c)),
        ),
      ];
    });
    const noteEls = notes.map((n) => h('div', { class: 'popup-note' }, codicon('info'), h('span', {}, n)));
    this.body.replaceChildren(...noteEls, ...groups);
    if (groups.length === 0 && noteEls.length === 0)
      this.body.replaceChildren(h('div', { class: 'popup-note' }, 'Nothing was found to choose from.'));
    this.body.querySelector<HTMLElement>('.popup-option')?.focus();
  }

  private show(): void {
    setHidden(this.menu, false);
    setAttr(this.button, 'aria-expanded', 'true');
    this.body.replaceChildren(h('div', { class: 'popup-note', role: 'status' }, 'Looking for models…'));
    this.menu.tabIndex = -1;
    this.menu.focus();
    this.actions.list();
  }

  private close(refocus: boolean): void {
    setHidden(this.menu, true);
    setAttr(this.button, 'aria-expanded', 'false');
    if (refocus) this.button.focus();
  }

  private option(choice: ModelChoice): HTMLElement {
    const b = h(
      'button',
      { type: 'button', class: 'popup-option', 'data-choice-id': choice.id, title: choice.detail },
      h('span', { class: 'popup-option-label' }, choice.label),
      h('span', { class: 'popup-option-detail' }, choice.detail),
    );
    b.addEventListener('click', () => {
      this.close(true);
      this.actions.choose(choice.id);
    });
    return b;
  }

  private onKey(e: KeyboardEvent): void {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      return this.close(true);
    }
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const options = [...this.body.querySelectorAll<HTMLElement>('.popup-option')];
    if (!options.length) return;
    e.preventDefault();
    const at = options.indexOf(document.activeElement as HTMLElement);
    const next = e.key === 'ArrowDown' ? options[(at + 1) % options.length] : options[(at - 1 + options.length) % options.length];
    next?.focus();
  }
}
