/**
 * Tiny DOM helpers. Every string goes in through textContent or setAttribute, never innerHTML:
 * only markdown.ts writes HTML, and only after DOMPurify.
 */

type AttrValue = string | number | boolean | undefined;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, AttrValue> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  applyAttrs(el, attrs);
  el.append(...children);
  return el;
}

/** Custom elements (the toolkit's) have no entry in HTMLElementTagNameMap. */
export function custom(tag: string, attrs: Record<string, AttrValue> = {}, ...children: (Node | string)[]): HTMLElement {
  const el = document.createElement(tag);
  applyAttrs(el, attrs);
  el.append(...children);
  return el;
}

function applyAttrs(el: HTMLElement, attrs: Record<string, AttrValue>): void {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (name === 'class') el.className = String(value);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
}

/** A codicon; decorative, so hidden from screen readers (the text next to it carries the meaning). */
export function codicon(name: string, extraClass = ''): HTMLElement {
  const i = document.createElement('i');
  i.className = `codicon codicon-${name}${extraClass ? ' ' + extraClass : ''}`;
  i.setAttribute('aria-hidden', 'true');
  return i;
}

// Writes only on change: a batch touches few fields, and unchanged writes still cost style work.
export function setText(el: Node, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}

export function setAttr(el: Element, name: string, value: string): void {
  if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}

export function setClass(el: Element, className: string): void {
  if (el.className !== className) el.className = className;
}

export function setHidden(el: HTMLElement, hidden: boolean): void {
  if (el.hidden !== hidden) el.hidden = hidden;
}

/**
 * A small native button with a codicon: light enough for every message, code block and list row
 * (the toolkit's buttons are custom elements with a shadow tree each). The label is its accessible
 * name and tooltip; `text` shows beside the icon when given.
 */
export function iconButton(label: string, icon: string, className: string, text?: string): HTMLButtonElement {
  const b = h('button', { type: 'button', class: `icon-button ${className}`, 'aria-label': label, title: label }, codicon(icon));
  if (text) b.append(h('span', { class: 'icon-button-text' }, text));
  return b;
}

/** A link to a workspace file at a line; what it does on click is the panel's (linkActions.ts). */
export function fileLink(path: string, line: number | undefined, text: string, focusable = true): HTMLAnchorElement {
  const where = line === undefined ? path : `${path}:${line}`;
  const a = h(
    'a',
    { class: 'file-link', href: '#', 'data-path': path, title: `Open ${where}`, tabindex: focusable ? undefined : -1 },
    text,
  );
  if (line !== undefined) a.dataset.line = String(line);
  return a;
}
