import type { RunLimit } from '../../src/shared/events';
import { h, setAttr, setClass, setHidden, setText } from '../kit/dom';

/** At this share of its limit the bar turns to the warning colour (the engine warns then too). */
const WARN_SHARE = 0.8;

/**
 * A run's token budget as a bar: what it and its subagents have used of what it may use
 * (run.config's `limits.maxTokens`), live from the run.usage events. Hidden when the run has no
 * limit. A `meter` for screen readers; the fill's width is set through CSSOM, which the CSP allows.
 */
export class BudgetBar {
  readonly el: HTMLElement;
  private readonly fill: HTMLElement;
  private readonly label: HTMLElement;

  constructor() {
    this.fill = h('div', { class: 'budget-fill' });
    this.label = h('span', { class: 'budget-label' });
    this.el = h(
      'div',
      { class: 'budget', hidden: true },
      h('div', { class: 'budget-bar', role: 'meter', 'aria-valuemin': 0, 'aria-label': 'Token budget' }, this.fill),
      this.label,
    );
  }

  /** `used`: the tokens of the run and its subtree so far. */
  update(limit: RunLimit | undefined, used: number): void {
    setHidden(this.el, !limit);
    if (!limit) return;
    const share = limit.value > 0 ? used / limit.value : 1;
    const bar = this.el.firstElementChild as HTMLElement;
    setAttr(bar, 'aria-valuemax', String(limit.value));
    setAttr(bar, 'aria-valuenow', String(Math.min(used, limit.value)));
    setAttr(bar, 'aria-valuetext', `${tokens(used)} of ${tokens(limit.value)} tokens`);
    const width = `${Math.min(100, Math.round(share * 100))}%`;
    if (this.fill.style.width !== width) this.fill.style.width = width;
    setClass(this.el, share >= 1 ? 'budget budget-spent' : share >= WARN_SHARE ? 'budget budget-warn' : 'budget');
    setText(this.label, `${tokens(used)} / ${tokens(limit.value)} tokens (${Math.floor(share * 100)} %)`);
    setAttr(this.el, 'title', `Token budget: ${limit.source}`);
  }
}

function tokens(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}
