import type { RunConfig, RunLimit } from '../../src/shared/events';
import { h, setText } from '../kit/dom';

/**
 * "Why this config?": what a run was actually given, from its run.config record, field by field
 * with where each value came from: the profile's source, the model and how it was reached (alias,
 * list, inheritance), the final tools and why each missing one is missing, the limits and the
 * budget left, and the system prompt and task message as sent. Built when first opened.
 */
export class ConfigInspector {
  readonly el: HTMLElement;
  private readonly left: HTMLElement;
  private config: RunConfig | undefined;

  constructor() {
    this.left = h('span', { class: 'config-left' });
    this.el = h('section', { class: 'config-inspector', 'aria-label': 'Why this config?', hidden: true });
  }

  get open(): boolean {
    return !this.el.hidden;
  }

  /** Shows `config`; `used` is what the run and its subagents have used so far, for the budget left. */
  show(config: RunConfig, used: number): void {
    if (this.config !== config) {
      this.config = config;
      this.el.replaceChildren(...sections(config, this.left));
    }
    this.setUsed(used);
    this.el.hidden = false;
  }

  hide(): void {
    this.el.hidden = true;
  }

  setUsed(used: number): void {
    const limit = this.config?.limits.maxTokens;
    if (limit) setText(this.left, `${tokens(Math.max(0, limit.value - used))} left of ${tokens(limit.value)}`);
  }
}

function sections(c: RunConfig, left: HTMLElement): HTMLElement[] {
  const rows: [string, (Node | string)[]][] = [];
  rows.push(['Profile', [c.profileSource, ...(c.profilePath ? [h('span', { class: 'config-path' }, ` ${c.profilePath}`)] : [])]]);
  rows.push([
    'Model',
    [
      h('code', {}, c.model.effective),
      h('div', { class: 'config-why' }, `Asked for: ${requested(c.model.requested)}. Via ${c.model.via}.`),
    ],
  ]);
  rows.push(['Tools', [c.tools.effective.length ? c.tools.effective.join(', ') : 'none']]);
  const declared = c.tools.declared;
  if (declared) {
    const said = [
      ...(declared.tools ? [`tools: ${declared.tools.join(', ')}`] : []),
      ...(declared.disallowedTools ? [`disallowedTools: ${declared.disallowedTools.join(', ')}`] : []),
    ];
    rows.push(['Declared', [said.join('; ')]]);
  }
  if (c.tools.removed.length) {
    rows.push([
      'Not given',
      [h('ul', { class: 'config-removed' }, ...c.tools.removed.map((r) => h('li', {}, h('code', {}, r.tool), ` — ${r.reason}`)))],
    ]);
  }
  const limit = (name: string, l: RunLimit | undefined, extra: Node[] = []) =>
    l && rows.push([name, [`${l.value.toLocaleString('en-US')} (${l.source})`, ...extra]]);
  limit('Max steps', c.limits.maxSteps);
  limit('Timeout (ms)', c.limits.timeoutMs);
  limit('Max tokens', c.limits.maxTokens, [h('div', { class: 'config-why' }, 'Budget: ', left)]);
  if (c.projectInstructions?.length) rows.push(['Project instructions', [c.projectInstructions.join(', ')]]);
  const list = h('dl', { class: 'config-fields' }, ...rows.flatMap(([name, value]) => [h('dt', {}, name), h('dd', {}, ...value)]));
  return [
    h('h3', { class: 'config-title' }, 'Why this config?'),
    list,
    h('h4', {}, 'System prompt, as sent'),
    h('pre', { class: 'config-text config-system' }, c.systemPrompt),
    h('h4', {}, 'Task message, as sent'),
    h('pre', { class: 'config-text config-task' }, c.taskMessage),
  ];
}

function requested(r: RunConfig['model']['requested']): string {
  if (r === null) return 'nothing (the profile names no model)';
  return Array.isArray(r) ? r.map((m) => `"${m}"`).join(', then ') : `"${r}"`;
}

function tokens(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}
