import { provideVSCodeDesignSystem, vsCodeButton, vsCodeProgressRing } from '@vscode/webview-ui-toolkit';
import { codicon, custom } from './dom';

/**
 * The one module that knows @vscode/webview-ui-toolkit. It is deprecated upstream; moving to
 * @vscode-elements/elements means changing the registrations and tag names here, nothing else.
 * Only the components the panel uses are registered, which keeps the bundle small.
 * Element factories live here too, so no other module spells a toolkit tag name.
 */

export function registerToolkit(): void {
  provideVSCodeDesignSystem().register(vsCodeButton(), vsCodeProgressRing());
}

export interface ButtonOptions {
  id?: string;
  label: string;
  icon?: string;
  appearance?: 'primary' | 'secondary' | 'icon';
  className?: string;
}

/** A button; icon-only buttons carry their label as aria-label and tooltip. */
export function button(o: ButtonOptions): HTMLElement {
  const iconOnly = o.appearance === 'icon';
  const el = custom('vscode-button', {
    id: o.id,
    appearance: o.appearance ?? 'primary',
    class: o.className,
    'aria-label': iconOnly ? o.label : undefined,
    title: iconOnly ? o.label : undefined,
  });
  if (o.icon) {
    const icon = codicon(o.icon);
    if (!iconOnly) icon.setAttribute('slot', 'start');
    el.append(icon);
  }
  if (!iconOnly) el.append(o.label);
  return el;
}

export function setButtonDisabled(el: HTMLElement, disabled: boolean): void {
  el.toggleAttribute('disabled', disabled);
}

export function progressRing(label: string): HTMLElement {
  return custom('vscode-progress-ring', { 'aria-label': label, class: 'progress-ring' });
}
