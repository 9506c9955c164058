import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Lexer, type Token } from 'marked';
import { describe, expect, it } from 'vitest';
import { headingSlug, readmeSections } from '../../../../src/host/commands/readmeSections';

// The settings' links to the README (package.json: `command:subagents.openReadme?["<id>"]`) name a
// heading by the id VS Code's Markdown preview gives it; a renamed heading must fail here, not
// leave a link that opens the README at the top.

const ROOT = join(__dirname, '..', '..', '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const MANIFEST = readFileSync(join(ROOT, 'package.json'), 'utf8');
const LINK = /\[([^\]]*)\]\(command:subagents\.openReadme\?([^)\s]*)\)/g;

/** Every description string of the settings, nested ones (a profile's fields) included, by where it is. */
function descriptions(): { where: string; text: string }[] {
  const manifest = JSON.parse(MANIFEST) as { contributes: { configuration: unknown } };
  const found: { where: string; text: string }[] = [];
  const walk = (value: unknown, where: string): void => {
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${where}[${i}]`));
    else if (value && typeof value === 'object')
      for (const [key, v] of Object.entries(value)) {
        if (typeof v === 'string' && /description$/i.test(key)) found.push({ where: `${where}.${key}`, text: v });
        else walk(v, `${where}.${key}`);
      }
  };
  walk(manifest.contributes.configuration, 'configuration');
  return found;
}

/** The README's headings as a full Markdown parser reads them: their text without marks, code spans' text, links' text. */
function parsedHeadings(markdown: string): string[] {
  const textOf = (tokens: Token[] | undefined): string =>
    (tokens ?? [])
      .map((t) =>
        t.type === 'codespan' ? (t as { text: string }).text : 'tokens' in t && t.tokens ? textOf(t.tokens) : 'text' in t ? t.text : '',
      )
      .join('');
  return new Lexer().lex(markdown).flatMap((t) => (t.type === 'heading' ? [textOf(t.tokens)] : []));
}

describe("the preview's heading ids", () => {
  it('lower-cases, drops punctuation but `_` and `-`, and makes each space a `-`', () => {
    expect(headingSlug('Configure a model')).toBe('configure-a-model');
    expect(headingSlug('External agents (ACP)')).toBe('external-agents-acp');
    expect(headingSlug("  What's new: v1.2, 100% & more!  ")).toBe('whats-new-v12-100--more');
    expect(headingSlug('snake_case and kebab-case')).toBe('snake_case-and-kebab-case');
    expect(headingSlug('Ünïcode Ärger ½')).toBe('ünïcode-ärger-');
  });

  it('reads ATX headings outside fenced code, their code spans and links as text, and numbers repeated ids', () => {
    const text = [
      '# Title #',
      '```bash',
      '# not a heading',
      '```',
      '## The `subagents.model` setting',
      '## See [Traces](#traces) too',
      '~~~',
      '## still code',
      '~~~',
      '### Notes',
      '### Notes',
      '#hashtag is no heading',
    ].join('\n');
    expect(readmeSections(text)).toEqual([
      { slug: 'title', line: 0 },
      { slug: 'the-subagentsmodel-setting', line: 4 },
      { slug: 'see-traces-too', line: 5 },
      { slug: 'notes', line: 9 },
      { slug: 'notes-1', line: 10 },
    ]);
  });

  it("finds README.md's headings as a Markdown parser does", () => {
    const sections = readmeSections(README).map((s) => s.slug);
    expect(sections.length).toBeGreaterThan(10);
    expect(sections).toEqual(parsedHeadings(README).map(headingSlug));
    expect(sections).toContain('configure-a-model');
  });
});

describe("the settings' links to the README", () => {
  const links = descriptions().flatMap(({ where, text }) =>
    [...text.matchAll(LINK)].map((m) => ({ where, label: m[1]!, args: JSON.parse(decodeURIComponent(m[2]!)) as unknown })),
  );

  it('each names a section README.md has, the one its words name', () => {
    const ids = new Set(readmeSections(README).map((s) => s.slug));
    expect(links.length, 'links found in package.json').toBeGreaterThanOrEqual(15);
    const wrong = links.filter(({ label, args }) => {
      const id = Array.isArray(args) && args.length === 1 && typeof args[0] === 'string' ? args[0] : undefined;
      const named = /"([^"]+)"/.exec(label)?.[1];
      return id === undefined || !ids.has(id) || named === undefined || headingSlug(named) !== id;
    });
    expect(wrong, `README sections: ${[...ids].join(', ')}`).toEqual([]);
  });

  it('leaves no pointer to the README as plain text', () => {
    const plain = descriptions().filter(({ text }) => /README/.test(text.replace(LINK, '')));
    expect(plain).toEqual([]);
  });

  it('uses markdownDescription, which the Settings page renders as Markdown (description would show the link as text)', () => {
    const wrongKey = descriptions().filter(
      ({ where, text }) => new RegExp(LINK.source).test(text) && !where.endsWith('.markdownDescription'),
    );
    expect(wrongKey).toEqual([]);
  });
});
