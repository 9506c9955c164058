import type { Node, Pair } from 'yaml';
import type { TextRange } from '../profiles/profileProblem';
import type { FrontMatterField } from './frontMatterField';
import { readLenientFields } from './lenientFields';
import { TextPositions } from './textPositions';
import { placeYamlError } from './yamlErrorPlace';
import { yamlLibrary } from './yamlLibrary';

export type { FrontMatterField } from './frontMatterField';

/** Which reader read the front matter: strict YAML, or the line reader when strict YAML refused it. */
export type FrontMatterReader = 'yaml' | 'lenient';

export interface FrontMatter {
  fields: FrontMatterField[];
  /** The text after the closing `---` line: the agent's instructions. */
  body: string;
  /** The line of the opening `---` and of the closing one (0-based). */
  openLine: number;
  closeLine: number;
  reader: FrontMatterReader;
  /** Why strict YAML refused it, when the line reader read it. */
  strictError?: { message: string; range: TextRange };
  positions: TextPositions;
}

export type FrontMatterResult =
  | { ok: true; frontMatter: FrontMatter }
  | {
      ok: false;
      code: 'no-front-matter' | 'bad-yaml' | 'not-a-mapping';
      message: string;
      range: TextRange;
      positions: TextPositions;
      /** What could be read around a YAML error, so its other problems are still found (and shown with the error). */
      partial?: FrontMatter;
    };

const DELIMITER = /^-{3,}[ \t]*\r?$/;

/**
 * The most front matter read. Real files have a few hundred bytes to 2 KB (the 752 files of the
 * corpus: 1.5 KB at most); the YAML parser's duplicate-key check is quadratic, so 100 KB of keys
 * would hold the language server for minutes on every keystroke.
 */
export const MAX_FRONT_MATTER_BYTES = 16 * 1024;

/**
 * Reads an agent file's front matter: strict YAML first (the `yaml` package, YAML 1.2), and when
 * that fails, the lenient line reader (lenientFields.ts), which reads a file the way Claude Code
 * and VS Code read the files people actually write (an unquoted `description:` with colons in it).
 * `knownKeys` tells the line reader which `word:` lines start a field rather than continue one.
 */
export function readFrontMatter(raw: string, knownKeys: ReadonlySet<string>): FrontMatterResult {
  const text = raw.replace(/^\uFEFF/, '');
  const positions = new TextPositions(text);
  const fail = (
    code: 'no-front-matter' | 'bad-yaml' | 'not-a-mapping',
    message: string,
    range: TextRange,
    partial?: FrontMatter,
  ): FrontMatterResult => ({ ok: false, code, message, range, positions, ...(partial ? { partial } : {}) });
  if (positions.lineCount === 0 || !DELIMITER.test(positions.lineText(0)) || positions.lineText(0).replace(/\s+$/, '') !== '---') {
    return fail(
      'no-front-matter',
      'has no front matter: the file must start with a "---" line, then the fields (description: …), then another "---" line, then the instructions',
      positions.lineRange(0),
    );
  }
  let closeLine = -1;
  for (let line = 1; line < positions.lineCount; line++) {
    if (DELIMITER.test(positions.lineText(line))) {
      closeLine = line;
      break;
    }
  }
  if (closeLine < 0)
    return fail(
      'no-front-matter',
      'opens its front matter on line 1 but never closes it: add a "---" line after the fields',
      positions.lineRange(0),
    );
  const start = positions.offsetAt({ line: 1, character: 0 });
  const end = positions.offsetAt({ line: closeLine, character: 0 });
  const yamlText = text.slice(start, end);
  if (yamlText.length > MAX_FRONT_MATTER_BYTES) {
    return fail(
      'bad-yaml',
      `has ${Math.ceil(yamlText.length / 1024)} KB of front matter, and at most ${MAX_FRONT_MATTER_BYTES / 1024} KB is read: keep the fields short and put long text in the instructions below the closing "---"`,
      positions.lineRange(0),
    );
  }
  const bodyStart = positions.offsetAt({ line: closeLine + 1, character: 0 });
  const body = closeLine + 1 < positions.lineCount ? text.slice(bodyStart) : '';
  const base = { body, openLine: 0, closeLine, positions };

  const strict = readStrict(yamlText, start, positions);
  if (strict.ok && strict.alias) {
    // Not expanded (a "billion laughs" would be), and not read as the object the parser leaves in its place.
    return fail(
      'bad-yaml',
      `uses a YAML alias (${strict.alias.text}), which agent files here do not expand: write the value out in full`,
      strict.alias.range,
      { ...base, fields: strict.fields.filter((f) => !f.hasAlias), reader: 'yaml' },
    );
  }
  if (strict.ok) return { ok: true, frontMatter: { ...base, fields: strict.fields, reader: 'yaml' } };
  const lenient = readLenientFields(positions, 1, closeLine, knownKeys);
  if (!lenient.ok) {
    if (strict.notMapping) return fail('not-a-mapping', 'has front matter that is not a list of "field: value" lines', strict.range);
    const partial: FrontMatter = strict.fields
      ? { ...base, fields: strict.fields, reader: 'yaml' }
      : { ...base, fields: lenient.fields, reader: 'lenient' };
    // The line reader's reason adds nothing when it found the same unclosed value.
    const also = lenient.message.includes('never closes it') && /never closed/.test(strict.message) ? '' : `; ${lenient.message}`;
    return fail('bad-yaml', `has front matter that no reader can read: ${strict.message}${also}`, strict.range, partial);
  }
  return {
    ok: true,
    frontMatter: { ...base, fields: lenient.fields, reader: 'lenient', strictError: { message: strict.message, range: strict.range } },
  };
}

type StrictResult =
  | { ok: true; fields: (FrontMatterField & { hasAlias?: boolean })[]; alias?: { text: string; range: TextRange } }
  /** `fields`: the pairs YAML read whole around its errors (the parser recovers and goes on). */
  | { ok: false; message: string; range: TextRange; notMapping?: boolean; fields?: FrontMatterField[] };

function readStrict(yamlText: string, offset: number, positions: TextPositions): StrictResult {
  const { LineCounter, isMap, isScalar, isSeq, parseDocument, visit } = yamlLibrary();
  const doc = parseDocument(yamlText, { lineCounter: new LineCounter(), prettyErrors: false, uniqueKeys: true });
  const firstError = doc.errors[0];
  const range = (node: Node | null | undefined): TextRange => {
    const r = node?.range;
    return r ? positions.range(offset + r[0], offset + r[1]) : positions.range(offset, offset);
  };
  if (firstError) {
    const placed = placeYamlError(doc, firstError, yamlText, offset, positions);
    // The pairs no error falls in, for the checks that do not need the rest.
    const broken = (node: Node | null | undefined) => {
      const r = node?.range;
      return r ? doc.errors.some((e) => e.pos[0] <= r[2] && Math.max(e.pos[1], e.pos[0] + 1) > r[0]) : false;
    };
    const fields = isMap(doc.contents)
      ? readPairs(doc.contents.items.filter((pair) => !broken(pair.key as Node) && !broken(pair.value as Node)))
      : undefined;
    return { ok: false, message: placed.message, range: placed.range, ...(fields ? { fields } : {}) };
  }
  if (doc.contents === null) return { ok: true, fields: [] };
  if (!isMap(doc.contents))
    return { ok: false, message: 'the front matter is not a mapping', range: range(doc.contents as Node), notMapping: true };
  let alias: { text: string; range: TextRange } | undefined;
  const fields = readPairs(doc.contents.items).map((field, index) => {
    const pair = (doc.contents as { items: Pair[] }).items.filter((p) => isScalar(p.key))[index]!;
    let found = false;
    const value = pair.value as Node | null;
    if (value) {
      visit(value, {
        Alias(_, node) {
          found = true;
          alias ??= { text: `*${node.source}`, range: range(node) };
          return visit.BREAK;
        },
      });
    }
    return found ? { ...field, hasAlias: true } : field;
  });
  return { ok: true, fields, ...(alias ? { alias } : {}) };

  function readPairs(pairs: readonly Pair[]): FrontMatterField[] {
    const fields: FrontMatterField[] = [];
    for (const pair of pairs) {
      if (!isScalar(pair.key)) continue;
      const key = String(pair.key.value);
      const value = pair.value as Node | null;
      const keyRange = range(pair.key);
      const valueRange = value ? range(value) : { start: keyRange.end, end: keyRange.end };
      const field: FrontMatterField = { key, value: value ? value.toJSON() : null, keyRange, valueRange };
      if (isSeq(value)) field.items = value.items.map((item) => ({ value: (item as Node).toJSON(), range: range(item as Node) }));
      fields.push(field);
    }
    return fields;
  }
}
