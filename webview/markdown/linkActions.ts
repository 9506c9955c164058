import type { WebviewToHost } from '../../src/shared/protocol';
import type { Announcer } from '../kit/announcer';
import { codicon } from '../kit/dom';

/**
 * What the panel's links and code-block buttons do, for every one of them, with one listener on
 * the page: a file link posts openLocation (the host checks the path is in the workspace and opens
 * it at the line), Copy writes the code to the clipboard, Insert at cursor posts it to the editor.
 */
export function handleLinkActions(root: HTMLElement, post: (message: WebviewToHost) => void, announcer: Announcer): void {
  root.addEventListener('click', (e) => {
    const target = e.target as HTMLElement;
    const link = target.closest<HTMLAnchorElement>('a.file-link');
    if (link) {
      e.preventDefault();
      // A link inside a tree row opens the file; it does not also toggle the row.
      e.stopPropagation();
      const path = link.dataset.path;
      if (!path) return;
      const line = Number(link.dataset.line);
      post({ type: 'openLocation', location: Number.isInteger(line) && line >= 1 ? { path, line } : { path } });
      return;
    }
    const button = target.closest<HTMLButtonElement>('.code-copy, .code-insert');
    const code = button?.closest('.code-block')?.querySelector('pre')?.textContent;
    if (!button || code === undefined || code === null) return;
    if (button.classList.contains('code-insert')) post({ type: 'insertAtCursor', text: code });
    else void copyText(code, button, announcer);
  });
}

/** Copies and says so on the button (and to screen readers); a refusal is said, not swallowed. */
export async function copyText(text: string, button: HTMLElement, announcer: Announcer): Promise<void> {
  const label = button.getAttribute('aria-label') ?? 'Copy';
  try {
    await navigator.clipboard.writeText(text);
    flash(button, 'check', 'Copied', label);
    announcer.say('Copied to the clipboard.');
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    flash(button, 'error', `Could not copy: ${why}`, label);
    announcer.say(`Could not copy: ${why}`);
  }
}

/** Shows the outcome on the button for a moment, then its own icon and label again. */
function flash(button: HTMLElement, icon: string, label: string, restoreLabel: string): void {
  const original = button.querySelector('.codicon');
  const shown = codicon(icon);
  if (original) original.replaceWith(shown);
  button.setAttribute('aria-label', label);
  button.title = label;
  button.dataset.flash = icon;
  window.setTimeout(() => {
    if (original) shown.replaceWith(original);
    button.setAttribute('aria-label', restoreLabel);
    button.title = restoreLabel;
    delete button.dataset.flash;
  }, 1500);
}
