import TurndownService from 'turndown';
import { boundedHtml } from './boundedHtml';

/**
 * HTML to Markdown over turndown (which parses with its own server-side DOM, domino): a lazily
 * loaded bundle of its own (dist/htmlToMarkdown.js, see scripts/bundles.mjs). The page is first
 * rewritten by boundedHtml (one linear pass: balanced tags, bounded nesting, only what Markdown
 * shows, scripts, styles, frames and forms dropped, at most MAX_ELEMENTS elements) and converted in
 * chunks, so a hostile page costs work in proportion to its size, and a bounded amount at most. Links and images keep their addresses as text;
 * nothing is fetched.
 */

/** A title longer than this is cut. */
export const MAX_TITLE = 300;

let service: TurndownService | undefined;

function converter(): TurndownService {
  service ??= new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '*' });
  return service;
}

export interface ConvertedPage {
  title?: string;
  markdown: string;
  /** Characters of the page's HTML past boundedHtml's limits, not converted. */
  unreadChars: number;
}

export function htmlToMarkdown(page: string): ConvertedPage {
  const { chunks, unreadChars, title } = boundedHtml(page);
  const markdown = chunks
    .map((chunk) => converter().turndown(chunk))
    .join('\n\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const shownTitle =
    title === undefined
      ? ''
      : decodeEntities(title.slice(0, MAX_TITLE * 4))
          .replace(/\s+/g, ' ')
          .trim()
          .slice(0, MAX_TITLE);
  return shownTitle ? { title: shownTitle, markdown, unreadChars } : { markdown, unreadChars };
}

/** The few entities a title holds; the body's are turndown's. */
function decodeEntities(text: string): string {
  return text.replace(
    /&(amp|lt|gt|quot|#39|nbsp);/g,
    (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' })[e] ?? _,
  );
}
