import type { FrontMatterField } from './frontMatterField';
import type { TextPositions } from './textPositions';
import { yamlLibrary } from './yamlLibrary';

/**
 * The line reader for front matter that strict YAML refuses. Claude Code and VS Code accept a
 * one-line `description:` whose text has colons in it ("Triggers on: 'HIPAA', …", `user: "…"`
 * inside an <example>), which YAML reads as a nested mapping and rejects. This reader takes the
 * file as such people write it: a line that starts at column 0 with a known field name and a colon
 * starts that field, the rest of the line is its value (colons and all), and every other line
 * continues the field above (an indented `- item` is a list item). A quoted value or a `[a, b]`
 * list is read as YAML would read it.
 */
export function readLenientFields(
  positions: TextPositions,
  firstLine: number,
  endLine: number,
  knownKeys: ReadonlySet<string>,
): { ok: true; fields: FrontMatterField[] } | { ok: false; message: string; fields: FrontMatterField[] } {
  const fields: FrontMatterField[] = [];
  let current: { field: FrontMatterField; lines: string[]; list: boolean } | undefined;
  let broken: string | undefined;
  let brokenKey: string | undefined;
  const finish = () => {
    if (!current) return;
    const { field, lines, list } = current;
    if (!list) {
      const text = lines.join(' ').trim();
      if (/^[[{]/.test(text) && !/^(\[.*\]|\{.*\})$/.test(text))
        broken ??= `the "${field.key}" value opens a list with "${text[0]}" and never closes it`;
      else if (/^["']/.test(text) && !text.endsWith(text[0]!)) broken ??= `the "${field.key}" value opens a quote and never closes it`;
      if (broken && brokenKey === undefined) brokenKey = field.key;
      field.value = scalarOrList(text, field);
    }
    current = undefined;
  };
  for (let line = firstLine; line < endLine; line++) {
    const text = positions.lineText(line);
    if (text.trim() === '' || /^\s*#/.test(text)) continue;
    const key = /^([A-Za-z_][\w.-]*)[ \t]*:(?=\s|$)[ \t]*(.*?)\s*$/.exec(text);
    if (key && (knownKeys.has(key[1]!) || !current)) {
      finish();
      const lineStart = positions.offsetAt({ line, character: 0 });
      const valueStart = lineStart + text.indexOf(key[2]!, key[1]!.length + 1);
      const field: FrontMatterField = {
        key: key[1]!,
        value: null,
        keyRange: positions.range(lineStart, lineStart + key[1]!.length),
        valueRange: key[2]
          ? positions.range(valueStart, valueStart + key[2].length)
          : positions.range(lineStart + text.length, lineStart + text.length),
      };
      fields.push(field);
      current = { field, lines: key[2] && !/^[|>][+-]?$/.test(key[2]) ? [key[2]] : [], list: false };
      continue;
    }
    if (!current)
      return { ok: false, message: `line ${line + 1} ("${text.trim().slice(0, 40)}") is not a "field: value" line`, fields: readable() };
    const item = /^(\s+)-\s+(.*?)\s*$/.exec(text);
    if (item && current.lines.length === 0) {
      current.list = true;
      const lineStart = positions.offsetAt({ line, character: 0 });
      const start = lineStart + item[1]!.length + text.slice(item[1]!.length).indexOf(item[2]!);
      const value = unquote(item[2]!);
      current.field.items = [...(current.field.items ?? []), { value, range: positions.range(start, start + item[2]!.length) }];
      current.field.value = current.field.items.map((i) => i.value);
      current.field.valueRange = { start: current.field.items[0]!.range.start, end: positions.range(start, start + item[2]!.length).end };
      continue;
    }
    if (current.list) {
      brokenKey ??= current.field.key;
      return {
        ok: false,
        message: `line ${line + 1} continues the list "${current.field.key}" but is not a "- item" line`,
        fields: readable(),
      };
    }
    current.lines.push(text.trim());
    const lineStart = positions.offsetAt({ line, character: 0 });
    if (current.lines.length === 1)
      current.field.valueRange = positions.range(lineStart + text.length - text.trimStart().length, lineStart + text.length);
    else current.field.valueRange = { start: current.field.valueRange.start, end: positions.positionAt(lineStart + text.length) };
  }
  finish();
  return broken ? { ok: false, message: broken, fields: readable() } : { ok: true, fields };

  /** When the reader gives up: the fields read whole before that, for the checks that do not need the rest. */
  function readable(): FrontMatterField[] {
    finish();
    return fields.filter((f) => f.key !== brokenKey);
  }
}

/** A quoted string, a flow list, true/false or a number as YAML reads them; anything else as the text it is. */
function scalarOrList(text: string, field: FrontMatterField): unknown {
  if (text === '') return null;
  if (/^\[.*\]$/.test(text)) {
    const inner = text.slice(1, -1);
    try {
      const list = yamlLibrary().parse(text) as unknown;
      if (Array.isArray(list)) return list;
    } catch {
      // a list YAML cannot read: split it on commas ourselves
    }
    return inner
      .split(',')
      .map((s) => unquote(s.trim()))
      .filter((s) => s !== '');
  }
  if (/^(true|false)$/.test(text)) return text === 'true';
  if (/^-?\d+(\.\d+)?$/.test(text) && field.key !== 'name') return Number(text);
  return unquote(text);
}

function unquote(text: string): string {
  if (text.length >= 2 && ((text.startsWith('"') && text.endsWith('"')) || (text.startsWith("'") && text.endsWith("'")))) {
    try {
      const value = yamlLibrary().parse(text) as unknown;
      if (typeof value === 'string') return value;
    } catch {
      // not a valid quoted scalar: keep the text between the quotes
    }
    return text.slice(1, -1);
  }
  return text;
}
