import { describe, expect, it } from 'vitest';
import { boundedHtml, CHUNK_CHARS, MAX_DEPTH, MAX_ELEMENTS } from '../../../../src/core/tools/web/boundedHtml';
import { htmlToMarkdown } from '../../../../src/core/tools/web/htmlToMarkdown';

// Hostile HTML: 200k unclosed tags, attributes, comments. The converter (domino and turndown)
// walks its open elements per tag and recurses per level, so before boundedHtml these took
// minutes or blew the stack.
const N = 200_000;
const HOSTILE: Record<string, string> = {
  'unclosed <div>': '<div>'.repeat(N) + 'x',
  'unclosed <b>': '<b>'.repeat(N) + 'x',
  'nested lists': '<ul><li>'.repeat(N),
  'nested tables': '<table><tr><td>'.repeat(N),
  'empty paragraphs': '<p>'.repeat(N),
  'unclosed links': '<a href=x>'.repeat(N),
  attributes: `<div ${'a="1" '.repeat(N)}>x`,
  'an unclosed attribute': `<div a="${'x'.repeat(N)}`,
  'unclosed comments': '<!--'.repeat(N),
  'unclosed titles': '<title '.repeat(N),
  'misnested formatting': '<b><i><u><s>x</b>'.repeat(N / 4),
};

/** Open-tag depth of well-formed HTML (what boundedHtml writes). */
function maxDepth(html: string): number {
  let depth = 0;
  let max = 0;
  for (const [, close, name] of html.matchAll(/<(\/?)([a-z0-9]+)[^>]*>/g)) {
    if (['br', 'hr', 'img'].includes(name!)) continue;
    depth += close ? -1 : 1;
    max = Math.max(max, depth);
  }
  return max;
}

describe('boundedHtml', () => {
  it('gives the converter balanced, shallow chunks of bounded size and at most MAX_ELEMENTS elements, whatever the page', () => {
    for (const [name, html] of Object.entries(HOSTILE)) {
      const { chunks } = boundedHtml(html);
      let elements = 0;
      for (const chunk of chunks) {
        expect(chunk.length, name).toBeLessThan(CHUNK_CHARS + 2000);
        expect(maxDepth(chunk), name).toBeLessThanOrEqual(MAX_DEPTH);
        elements += chunk.match(/<[a-z]/g)?.length ?? 0;
      }
      // Each chunk reopens what was open at the last one's end.
      expect(elements, name).toBeLessThanOrEqual(MAX_ELEMENTS + chunks.length * MAX_DEPTH);
    }
  }, 60_000);

  it('converts each hostile page without throwing, in time bounded by a linear baseline of the same size', () => {
    const time = (html: string) => {
      const started = performance.now();
      htmlToMarkdown(html);
      return performance.now() - started;
    };
    time('<p>warm up</p>');
    for (const [name, html] of Object.entries(HOSTILE)) {
      const baseline = time(`<p>${'plain text '.repeat(Math.ceil(html.length / 11))}</p>`);
      // Generous: the machine is shared; a quadratic scan of 200k tags is hundreds of times slower.
      expect(time(html), name).toBeLessThan(40 * baseline + 3000);
    }
  }, 180_000);

  it('keeps what Markdown shows, drops what a page runs or submits, and takes the title from the head', () => {
    const page = htmlToMarkdown(
      '<html><head><title>A &amp; B</title><script>alert(1)</script><style>p{}</style></head><body><h2>Head</h2><ul><li>one<li>two</ul>' +
        '<p>see <a href="/x" onclick="steal()">this</a><form><input value="secret">form text</form><pre><code class="language-js">let a = 1 &lt; 2;</code></pre><svg><text>drawn</text></svg></body></html>',
    );
    expect(page.title).toBe('A & B');
    expect(page.markdown).toContain('## Head');
    expect(page.markdown).toMatch(/-\s+one\n-\s+two/);
    expect(page.markdown).toContain('see [this](/x)');
    expect(page.markdown).toContain('```js\nlet a = 1 < 2;\n```');
    for (const gone of ['alert', 'p{}', 'steal', 'secret', 'form text', 'drawn']) expect(page.markdown).not.toContain(gone);
    // A page that never closes its head still has a body.
    expect(htmlToMarkdown('<head><title>t</title><body><p>kept</p>').markdown).toBe('kept');
  });
});
