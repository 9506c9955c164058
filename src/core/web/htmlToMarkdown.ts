import TurndownService from 'turndown';

/**
 * HTML to Markdown over turndown (which parses with its own server-side DOM, domino): a lazily
 * loaded bundle of its own (dist/htmlToMarkdown.js, see scripts/bundles.mjs). What a page runs or
 * submits, and what only draws it, is dropped before converting: scripts, styles, frames, forms,
 * embedded objects and templates. Links and images keep their addresses as text; nothing is fetched.
 */

const DROPPED = ['script', 'style', 'noscript', 'iframe', 'frame', 'frameset', 'form', 'object', 'embed', 'template', 'svg', 'canvas', 'link', 'meta', 'head'] as const;

let service: TurndownService | undefined;

function converter(): TurndownService {
  if (service) return service;
  service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '*' });
  service.remove([...DROPPED] as TurndownService.Filter);
  return service;
}

export interface ConvertedPage {
  title?: string;
  markdown: string;
}

export function htmlToMarkdown(html: string): ConvertedPage {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1]?.replace(/\s+/g, ' ').trim();
  const markdown = converter().turndown(html).replace(/\n{3,}/g, '\n\n').trim();
  return title ? { title: decodeEntities(title), markdown } : { markdown };
}

/** The few entities a title holds; the body's are turndown's. */
function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' })[e] ?? _);
}
