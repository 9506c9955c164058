/** A heading of the README: the id the Markdown preview gives it, and its line (0-based). */
export interface ReadmeSection {
  slug: string;
  line: number;
}

/**
 * The characters the Markdown preview drops from a heading's id: all but letters, marks, decimal
 * and letter numbers, connector punctuation (`_`), space and `-`. VS Code's preview
 * (markdown-language-features, `githubSlugifier`) uses github-slugger's table; this is the same
 * set, checked against the table of code-server 4.139 (VS Code 1.139) for every code point: they
 * differ only on letters added to Unicode after that table was made.
 */
const DROPPED = /[^\p{L}\p{M}\p{Nd}\p{Nl}\p{Pc} -]/gu;

/** A heading's id in the Markdown preview, as `fromHeading` makes it: `External agents (ACP)` is `external-agents-acp`. */
export function headingSlug(text: string): string {
  return text.trim().toLowerCase().replace(DROPPED, '').replace(/\s/g, '-');
}

/**
 * The headings of a Markdown text with their ids in the preview, top to bottom. A heading whose
 * id is taken gets `-1`, `-2`… as the preview's builder does. Reads ATX headings (`## Title`)
 * outside fenced code; its inline text as the preview reads it: code spans' text, links' and
 * images' text, not their targets. test/unit/host/commands/readmeSections.test.ts checks it
 * agrees with a full Markdown parser on README.md.
 */
export function readmeSections(markdown: string): ReadmeSection[] {
  const sections: ReadmeSection[] = [];
  const taken = new Map<string, number>();
  let fence: string | undefined;
  markdown.split(/\r?\n/).forEach((text, line) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(text)?.[1];
    if (fence !== undefined) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && text.trim() === marker) fence = undefined;
      return;
    }
    if (marker) {
      fence = marker;
      return;
    }
    const heading = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/.exec(text);
    if (!heading) return;
    const inline = (heading[1] ?? '')
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g, (_, _ticks: string, code: string) => code.trim());
    const slug = headingSlug(inline);
    const seen = taken.get(slug);
    taken.set(slug, seen === undefined ? 0 : seen + 1);
    sections.push({ slug: seen === undefined ? slug : headingSlug(`${slug}-${seen + 1}`), line });
  });
  return sections;
}
