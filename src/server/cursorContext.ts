import type { TextPosition } from '../core/config/profiles/profileProblem';

/** Where the cursor is in an agent file's front matter: at a field name, or in a field's value. */
export type CursorContext =
  { kind: 'key'; prefix: string; present: string[] } | { kind: 'value'; key: string; prefix: string; line: number; present: string[] };

const KEY_LINE = /^([A-Za-z_][\w.-]*)[ \t]*:(.*)$/;

/**
 * Reads the lines around the cursor, not the YAML: completion runs on half-typed text that no
 * parser accepts. Undefined outside the front matter (the instructions are free text).
 */
export function cursorContext(text: string, position: TextPosition): CursorContext | undefined {
  const lines = text.split(/\r?\n/);
  if (lines[0]?.trim() !== '---') return undefined;
  let close = lines.findIndex((l, i) => i > 0 && /^-{3,}\s*$/.test(l));
  if (close < 0) close = lines.length;
  if (position.line < 1 || position.line >= close) return undefined;
  const present = lines
    .slice(1, close)
    .map((l) => KEY_LINE.exec(l)?.[1])
    .filter((k): k is string => k !== undefined);
  const line = lines[position.line] ?? '';
  const before = line.slice(0, position.character);
  const key = KEY_LINE.exec(line);
  if (key && position.character > key[1]!.length) {
    return { kind: 'value', key: key[1]!, prefix: lastWord(before.slice(key[1]!.length + 1)), line: position.line, present };
  }
  if (/^\s/.test(line)) {
    // An indented line ("  - Re"): a value of the nearest field above.
    for (let l = position.line - 1; l >= 1; l--) {
      const above = KEY_LINE.exec(lines[l] ?? '');
      if (above) return { kind: 'value', key: above[1]!, prefix: lastWord(before), line: position.line, present };
    }
    return undefined;
  }
  return { kind: 'key', prefix: before.trim(), present };
}

/** The part of a value being typed: after the last separator, quotes and brackets. */
function lastWord(text: string): string {
  return /[^\s,[\]'"-][^,[\]'"\s]*$/.exec(text.replace(/^\s*-\s*/, ''))?.[0] ?? '';
}
