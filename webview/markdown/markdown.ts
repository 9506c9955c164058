import DOMPurify from 'dompurify';
import { Marked } from 'marked';
import { parseFileRef, type FileRef } from '../../src/shared/fileRef';
import { fileLink, h, iconButton } from '../kit/dom';
import { linkPlainPaths } from './plainPathLinks';

/**
 * Model output is markdown written by something we do not trust. Two layers:
 * - Raw HTML in it is shown as text, never parsed (as VS Code does for markdown without
 *   `supportHtml`). Parsing it even in DOMPurify's inert document would make the page report
 *   CSP violations for every `onerror=` or `style=` a model wrote.
 * - Everything marked emits still goes through DOMPurify before it touches the DOM, with more
 *   forbidden than its defaults: no images or media (the CSP would block remote ones, and they can
 *   track), no forms or controls, no `style` attributes, links only to the web.
 * Then the panel's own additions, built with the DOM API: workspace paths (a code span or a
 * relative link, `src/invoice.ts:42`, or a plain word with a folder in it) become links that open the file, and code blocks get Copy
 * and Insert at cursor (linkActions.ts does what they do).
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

const marked = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  renderer: {
    html: ({ text }) => escapeHtml(text),
  },
});

const FORBID_TAGS = [
  'img',
  'picture',
  'source',
  'video',
  'audio',
  'track',
  'style',
  'form',
  'input',
  'button',
  'textarea',
  'select',
  'option',
  'iframe',
  'object',
  'embed',
  'link',
  'meta',
  'base',
  'svg',
  'math',
];
const FORBID_ATTR = ['style', 'srcset', 'action', 'formaction', 'background', 'poster'];
const SAFE_HREF = /^(https?:|mailto:|#)/i;

let configured = false;
// Once: sanitize() given a config re-parses it on every call, which costs more than small inputs.
function configure(): void {
  if (configured) return;
  configured = true;
  DOMPurify.setConfig({
    USE_PROFILES: { html: true },
    FORBID_TAGS,
    FORBID_ATTR,
    ALLOW_DATA_ATTR: false,
  });
  // Links may only leave for the web (VS Code opens them outside the webview); no javascript:,
  // no relative paths into the webview's own origin. A relative link to a workspace file is kept
  // as a file link (its target is only ever posted to the host, which checks it).
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName !== 'A') return;
    const href = (node.getAttribute('href') ?? '').trim();
    node.setAttribute('rel', 'noopener noreferrer');
    if (SAFE_HREF.test(href)) return;
    node.removeAttribute('href');
    const ref = href ? parseFileRef(safeDecode(href)) : undefined;
    if (ref) markFileLink(node as HTMLAnchorElement, ref);
  });
}

/** Sanitized HTML for a markdown string. */
export function markdownToHtml(markdown: string): string {
  configure();
  return DOMPurify.sanitize(marked.parse(markdown, { async: false }));
}

/** Parses a sample while the panel waits for its state, so the first real answer is not slowed
 * by the parser's first (unoptimized) run. */
export function warmUpMarkdown(): void {
  markdownToHtml('# a\n\n**b** _c_ `d` [e](https://example.com)\n\n- f\n\n```\ng\n```');
}

/** Renders markdown into el, replacing what was there. */
export function renderMarkdown(el: HTMLElement, markdown: string): void {
  // The only innerHTML write in the webview; its input has just been sanitized.
  el.innerHTML = markdown ? markdownToHtml(markdown) : '';
  if (markdown) enhance(el);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function markFileLink(a: HTMLAnchorElement, ref: FileRef): void {
  a.setAttribute('href', '#');
  a.className = 'file-link';
  a.dataset.path = ref.path;
  if (ref.line !== undefined) a.dataset.line = String(ref.line);
  a.title = `Open ${ref.line === undefined ? ref.path : `${ref.path}:${ref.line}`}`;
}

/** File links for code spans that name a workspace file; Copy and Insert on code blocks. */
function enhance(el: HTMLElement): void {
  for (const code of el.querySelectorAll('code')) {
    if (code.closest('pre, a')) continue;
    const ref = parseFileRef(code.textContent ?? '');
    if (!ref) continue;
    const link = fileLink(ref.path, ref.line, '');
    code.replaceWith(link);
    link.append(code);
  }
  linkPlainPaths(el);
  for (const pre of el.querySelectorAll('pre')) {
    const actions = h(
      'div',
      { class: 'code-actions' },
      iconButton('Copy code', 'copy', 'code-copy'),
      iconButton('Insert at cursor', 'insert', 'code-insert'),
    );
    const block = h('div', { class: 'code-block' });
    pre.replaceWith(block);
    block.append(actions, pre);
  }
}
