import type { ModelChoice, PanelConfig } from '../../src/shared/protocol';
import { codicon, h, setHidden } from '../kit/dom';
import { button, progressRing } from '../kit/toolkit';

/**
 * `#model-choice`: shown while no model is set. Asks the host what is available (the editor's
 * models, a local Ollama, API keys) and offers it; a click sends back only the choice's id, and
 * the host writes the setting. The view hides itself when the new config arrives with a model.
 */

/** How choices are grouped and headed, here and in the prompt box's model picker. */
export const MODEL_GROUPS: { group: ModelChoice['group']; title: string }[] = [
  { group: 'editor', title: 'From the editor' },
  { group: 'local', title: 'On this machine' },
  { group: 'key', title: 'With an API key' },
  { group: 'demo', title: 'The demo' },
];

export class ModelChoiceView {
  readonly el: HTMLElement;
  private readonly body: HTMLElement;
  private asked = false;

  constructor(private readonly actions: { list(): void; choose(id: string): void }) {
    const again = button({ id: 'model-choice-refresh', label: 'Look again', icon: 'refresh', appearance: 'icon' });
    again.addEventListener('click', () => this.ask());
    this.body = h('div', { class: 'model-choice-body' });
    this.el = h(
      'section',
      { id: 'model-choice', 'aria-label': 'Choose a model', hidden: true },
      h('div', { class: 'model-choice-title' }, h('h2', { class: 'section-title' }, 'Choose a model'), again),
      h(
        'p',
        { class: 'model-choice-intro' },
        'No model is set yet. Pick one to start; it is saved as "subagents.model" in your user settings, and you can change it there at any time.',
      ),
      this.body,
    );
  }

  setConfig(config: PanelConfig): void {
    const needed = config.model === '';
    setHidden(this.el, !needed);
    if (!needed) this.asked = false;
    else if (!this.asked) this.ask();
  }

  setChoices(choices: readonly ModelChoice[], notes: readonly string[]): void {
    const sections = MODEL_GROUPS.flatMap(({ group, title }) => {
      const mine = choices.filter((c) => c.group === group);
      if (mine.length === 0) return [];
      return [h('div', { class: 'model-choice-group', 'data-group': group }, h('h3', {}, title), ...mine.map((c) => this.choiceRow(c)))];
    });
    const noteEls = notes.map((n) => h('div', { class: 'model-choice-note', role: 'status' }, codicon('info'), h('span', {}, n)));
    this.body.replaceChildren(...noteEls, ...sections);
  }

  private ask(): void {
    this.asked = true;
    this.body.replaceChildren(
      h('div', { class: 'model-choice-note' }, progressRing('Looking for models'), h('span', {}, 'Looking for models…')),
    );
    this.actions.list();
  }

  private choiceRow(choice: ModelChoice): HTMLElement {
    const pick = button({
      label: choice.label,
      appearance: choice.group === 'key' ? 'secondary' : 'primary',
      className: 'model-choice-button',
    });
    pick.dataset.choiceId = choice.id;
    pick.addEventListener('click', () => this.actions.choose(choice.id));
    return h('div', { class: 'model-choice' }, pick, h('span', { class: 'model-choice-detail' }, choice.detail));
  }
}
