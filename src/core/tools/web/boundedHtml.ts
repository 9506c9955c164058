/**
 * A page's HTML rewritten, in one pass that does a bounded amount of work per byte, into small,
 * well-formed HTML that the converter (domino and turndown) can take without quadratic work or a
 * blown stack: tags are balanced by our own stack, nesting stops at MAX_DEPTH (deeper tags are
 * left out, their text kept), only the tags and attributes Markdown can show are kept, and what a
 * page runs or submits (scripts, styles, frames, forms…) is dropped with everything inside it.
 * Hostile HTML (200k unclosed `<li>`, `<div>` or `<b>`) otherwise costs domino's tree builder a
 * walk of its open elements per tag and turndown a recursion per level.
 */

/** Deeper than this, tags are ignored and only their text is kept. */
export const MAX_DEPTH = 16;

/** Elements kept as elements (the rest are left out, their text kept). */
const KEPT = new Set(
  'a abbr article aside b blockquote br caption cite code dd del details div dl dt em figcaption figure footer h1 h2 h3 h4 h5 h6 header hr i img ins kbd li main mark nav ol p pre q s samp section small span strong sub summary sup table tbody td tfoot th thead tr tt u ul var'.split(
    ' ',
  ),
);
/** Elements dropped with all they hold. */
const DROPPED = new Set(
  'script style noscript iframe frame frameset form object embed template svg math canvas head title textarea select button audio video noembed noframes xmp'.split(
    ' ',
  ),
);
/** Elements whose content is raw text up to their end tag (not parsed as tags). */
const RAW_TEXT = new Set('script style textarea title xmp noembed noframes noscript iframe'.split(' '));
const VOID = new Set('area base br col embed hr img input link meta param source track wbr'.split(' '));
/** An open one of these is closed by a new one (`<li>` after `<li>`), within its list or table. */
const SELF_CLOSING_SIBLINGS: Record<string, string[]> = {
  li: ['ul', 'ol'],
  p: [],
  dt: ['dl'],
  dd: ['dl'],
  tr: ['table'],
  td: ['tr', 'table'],
  th: ['tr', 'table'],
  a: [],
};
const KEPT_ATTRIBUTES: Record<string, string[]> = {
  a: ['href', 'title'],
  img: ['src', 'alt'],
  code: ['class'],
  pre: ['class'],
  td: [],
  th: [],
};

/** Each chunk is converted on its own: turndown's work grows with the square of one document's size. */
export const CHUNK_CHARS = 16_000;

/**
 * Where the rewriting stops (the rest of the page is left out, and counted): turndown spends tens
 * of microseconds per element, so `<p>x` repeated a million times must not all reach it.
 */
export const MAX_ELEMENTS = 10_000;
export const MAX_WRITTEN_CHARS = 1_000_000;

export interface BoundedHtml {
  /** Well-formed pieces of at most about CHUNK_CHARS, each closing the elements open at its end and the next reopening them. */
  chunks: string[];
  /** Characters of the page past the point where MAX_ELEMENTS or MAX_WRITTEN_CHARS was reached: not rewritten. */
  unreadChars: number;
  /** The first `<title>`'s text, entities left as written. */
  title?: string;
}

const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)([^>]*)>?/y;
const ATTRIBUTE = /([^\s"'=<>/]+)(?:\s*=\s*(?:"([^"]*)"?|'([^']*)'?|([^\s>]+)))?/g;

export function boundedHtml(source: string): BoundedHtml {
  const chunks: string[] = [];
  let out: string[] = [];
  let written = 0;
  let chunkStart = 0;
  let elements = 0;
  const write = (text: string) => {
    out.push(text);
    written += text.length;
  };
  /** The open elements; `tag` is the start tag written for a kept one. */
  const open: { name: string; dropped: boolean; tag?: string }[] = [];
  let title: string | undefined;
  const dropping = () => open.length > 0 && open[open.length - 1]!.dropped;
  const close = (depth: number) => {
    while (open.length > depth) {
      const element = open.pop()!;
      if (element.tag) write(`</${element.name}>`);
    }
  };
  const endChunk = () => {
    for (let i = open.length - 1; i >= 0; i--) if (open[i]!.tag) write(`</${open[i]!.name}>`);
    chunks.push(out.join(''));
    out = [];
    chunkStart = written;
    for (const element of open) if (element.tag) write(element.tag);
  };
  let at = 0;
  while (at < source.length) {
    if (elements >= MAX_ELEMENTS || written >= MAX_WRITTEN_CHARS) break;
    if (written - chunkStart > CHUNK_CHARS) endChunk();
    const lt = source.indexOf('<', at);
    const textEnd = lt === -1 ? source.length : lt;
    if (textEnd > at && !dropping()) write(source.slice(at, Math.min(textEnd, at + MAX_WRITTEN_CHARS - written)));
    if (lt === -1) break;
    at = lt;
    if (source.startsWith('<!--', at)) {
      const end = source.indexOf('-->', at + 4);
      at = end === -1 ? source.length : end + 3;
      continue;
    }
    if (source[at + 1] === '!' || source[at + 1] === '?') {
      const end = source.indexOf('>', at);
      at = end === -1 ? source.length : end + 1;
      continue;
    }
    TAG.lastIndex = at;
    const tag = TAG.exec(source);
    if (!tag) {
      if (!dropping()) write('&lt;');
      at += 1;
      continue;
    }
    at = TAG.lastIndex;
    const name = tag[2]!.toLowerCase();
    if (tag[1]) {
      // An end tag closes the nearest open element of its name (the stack is at most MAX_DEPTH deep).
      for (let i = open.length - 1; i >= 0; i--) {
        if (open[i]!.name === name) {
          close(i);
          break;
        }
      }
      continue;
    }
    if (RAW_TEXT.has(name)) {
      const endTag = new RegExp(`</${name}[\\s/>]`, 'ig');
      endTag.lastIndex = at;
      const end = endTag.exec(source);
      const text = source.slice(at, end ? end.index : source.length);
      if (name === 'title' && title === undefined) title = text;
      at = end ? source.indexOf('>', end.index) + 1 || source.length : source.length;
      continue;
    }
    if (VOID.has(name)) {
      if (KEPT.has(name) && !dropping()) {
        elements++;
        write(openTag(name, tag[3]!));
      }
      continue;
    }
    if (name === 'body') {
      // A page that never closed its <head> has its body all the same.
      const head = open.findIndex((element) => element.name === 'head');
      if (head !== -1) close(head);
    }
    const siblingScope = SELF_CLOSING_SIBLINGS[name];
    if (siblingScope) {
      for (let i = open.length - 1; i >= 0 && !siblingScope.includes(open[i]!.name); i--) {
        if (open[i]!.name === name) {
          close(i);
          break;
        }
      }
    }
    if (open.length >= MAX_DEPTH) continue;
    const dropped = dropping() || DROPPED.has(name);
    const kept = !dropped && KEPT.has(name) ? openTag(name, tag[3]!) : undefined;
    open.push(kept ? { name, dropped, tag: kept } : { name, dropped });
    if (kept) {
      elements++;
      write(kept);
    }
  }
  const unreadChars = source.length - Math.min(at, source.length);
  close(0);
  chunks.push(out.join(''));
  return title === undefined ? { chunks, unreadChars } : { chunks, unreadChars, title };
}

function openTag(name: string, attributes: string): string {
  const kept = KEPT_ATTRIBUTES[name];
  if (!kept?.length) return `<${name}>`;
  let written = '';
  for (const [, key, ...values] of attributes.matchAll(ATTRIBUTE)) {
    const lower = key!.toLowerCase();
    if (!kept.includes(lower) || written.includes(` ${lower}=`)) continue;
    const value = values.find((v) => v !== undefined) ?? '';
    written += ` ${lower}="${value.replace(/"/g, '&quot;').replace(/</g, '&lt;')}"`;
  }
  return `<${name}${written}>`;
}
