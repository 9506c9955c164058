import type { Document, Node, Pair, YAMLError } from 'yaml';
import type { TextRange } from '../profiles/profileProblem';
import type { TextPositions } from './textPositions';
import { yamlLibrary } from './yamlLibrary';

/**
 * Where a YAML error is, and what it is, in words. The parser reports an unclosed quote or list
 * where it gave up looking for the close (the end of the front matter, which the editor shows on
 * the closing `---`); people need the line where the quote or list opens. So an error that falls
 * inside a field's value is moved to the first line of that value, and the parser's message
 * ("Missing closing "quote") becomes a sentence that says what to do.
 */
export function placeYamlError(
  doc: Document.Parsed,
  error: YAMLError,
  yamlText: string,
  offset: number,
  positions: TextPositions,
): { message: string; range: TextRange } {
  const [from, to] = error.pos;
  const contents = doc.contents;
  const pair = yamlLibrary().isMap(contents) ? (contents.items as Pair[]).find((p) => contains(p.value as Node | null, from)) : undefined;
  const value = pair?.value as Node | null | undefined;
  const key = pair ? String((pair.key as { value?: unknown } | null)?.value ?? '') : '';
  const start = value?.range ? value.range[0] : from;
  const at = positions.positionAt(offset + start);
  const line = at.line + 1;
  const lineEnd = positions.lineRange(at.line).end;
  const wholeLine = {
    start: at,
    end: lineEnd.line === at.line && lineEnd.character > at.character ? lineEnd : positions.positionAt(offset + start + 1),
  };
  const field = key ? `the "${key}" value` : 'a value';
  const parserSays = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');

  if (error.code === 'MISSING_CHAR' && /quote/.test(parserSays)) {
    const quote = yamlText[start] === "'" ? "'" : '"';
    return {
      message: `${field} on line ${line} opens a quote (${quote}) that is never closed; close it at the end of the value`,
      range: wholeLine,
    };
  }
  if ((error.code === 'BAD_INDENT' || error.code === 'MISSING_CHAR') && /end with a [\]}]/.test(parserSays)) {
    const bracket = yamlText[start] === '{' ? ['{', '}'] : ['[', ']'];
    return {
      message: `${field} on line ${line} opens a list with "${bracket[0]}" that is never closed; end it with "${bracket[1]}" on the same line`,
      range: wholeLine,
    };
  }
  const here = positions.positionAt(offset + from);
  if (error.code === 'DUPLICATE_KEY') {
    const name = /^[^:\s]+/.exec(yamlText.slice(from))?.[0] ?? 'a field';
    return {
      message: `"${name}" is set a second time on line ${here.line + 1}; keep one of the two`,
      range: positions.range(offset + from, offset + from + Math.max(name.length, 1)),
    };
  }
  if (error.code === 'BLOCK_AS_IMPLICIT_KEY' && pair) {
    return {
      message: `${field} has a colon followed by a space on line ${here.line + 1}, which YAML reads as a field inside the value; put the value in quotes`,
      range: { start: here, end: positions.lineRange(here.line).end },
    };
  }
  const said = parserSays.charAt(0).toLowerCase() + parserSays.slice(1).replace(/\.$/, '');
  return {
    message: `YAML cannot read line ${here.line + 1}, column ${here.character + 1} (${said})`,
    range: positions.range(offset + from, offset + Math.max(to, from + 1)),
  };
}

/** Whether the error's offset falls in the node, its end included (where an unclosed value stops). */
function contains(node: Node | null | undefined, offset: number): boolean {
  const r = node?.range;
  return r !== undefined && r !== null && r[0] <= offset && offset <= r[2];
}
