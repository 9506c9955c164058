import {
  provideVSCodeDesignSystem,
  vsCodeButton,
  vsCodeDivider,
  vsCodeDropdown,
  vsCodeOption,
  vsCodeProgressRing,
} from '@vscode/webview-ui-toolkit';
import { codicon, custom } from './dom';

/**
 * The one module that knows @vscode/webview-ui-toolkit. It is deprecated upstream; moving to
 * @vscode-elements/elements means changing the registrations and tag names here, nothing else.
 * Only the components the panel uses are registered, which keeps the bundle small.
 * Element factories live here too, so no other module spells a toolkit tag name.
 */

export function registerToolkit(): void {
  provideVSCodeDesignSystem().register(
    vsCodeButton(),
    vsCodeProgressRing(),
    vsCodeDivider(),
    vsCodeDropdown(),
    vsCodeOption(),
  );
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

/**
 * A count badge. Not the toolkit's: its template carries a `style` attribute, which the strict
 * CSP (no inline styles) reports as a violation even when the binding leaves it empty.
 */
export function badge(text: string, className = ''): HTMLElement {
  return custom('span', { class: `badge ${className}`.trim() }, text);
}

export function divider(): HTMLElement {
  return custom('vscode-divider', { role: 'separator' });
}

export interface DropdownOption {
  value: string;
  label: string;
}

export interface Dropdown {
  el: HTMLElement;
  /** Replaces the options and selects `selected`, without reporting a change. */
  setOptions(options: readonly DropdownOption[], selected: string): void;
}

interface ValueElement extends HTMLElement {
  value: string;
}

export function dropdown(id: string, label: string, onChange: (value: string) => void): Dropdown {
  const el = custom('vscode-dropdown', { id, 'aria-label': label, position: 'below' }) as ValueElement;
  // The toolkit emits `change` for programmatic value changes too; only the user's count.
  let updating = false;
  el.addEventListener('change', () => {
    if (!updating) onChange(el.value);
  });
  return {
    el,
    setOptions(options, selected) {
      updating = true;
      try {
        el.replaceChildren(
          ...options.map((o) => custom('vscode-option', { value: o.value, selected: o.value === selected }, o.label)),
        );
        el.value = selected;
      } finally {
        updating = false;
      }
    },
  };
}
