import { parseFileRef } from '../../src/shared/fileRef';
import { fileLink } from '../kit/dom';

/**
 * Workspace paths written as plain words in an answer (`see src/tax/rates.ts:12.`) become file
 * links, as code spans do. Only words with a folder in them count: a bare `README.md` or `e.g.`
 * in prose is too often not a file, and a wrong link is worse than none. Text inside code, code
 * blocks and links is left alone; the host still checks every path it is asked to open.
 */

// A word that could be a path with a location; trailing sentence punctuation is trimmed after.
const WORD = /[\w@+.\-/]+(?::\d{1,7}(?:[:-]\d{1,7})?|#L\d{1,7}(?:-L?\d{1,7})?)?/g;
const TRAILING = /[.:]+$/;

export function linkPlainPaths(root: HTMLElement): void {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) =>
      node.nodeValue?.includes('/') && !node.parentElement?.closest('code, pre, a') ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT,
  });
  const texts: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) texts.push(node as Text);
  for (const text of texts) linkIn(text);
}

function linkIn(text: Text): void {
  const value = text.nodeValue ?? '';
  const parts: (string | HTMLElement)[] = [];
  let last = 0;
  for (const match of value.matchAll(WORD)) {
    const word = match[0].replace(TRAILING, '');
    const start = match.index;
    // A word glued to what comes before it (`https://host/a.ts`, `x../a.ts`) is not a path of its own.
    if (!word.includes('/') || (start > 0 && /[\w:/]/.test(value[start - 1]!))) continue;
    const ref = parseFileRef(word);
    if (!ref || !ref.path.includes('/')) continue;
    parts.push(value.slice(last, start), fileLink(ref.path, ref.line, word));
    last = start + word.length;
  }
  if (parts.length === 0) return;
  parts.push(value.slice(last));
  text.replaceWith(...parts);
}
