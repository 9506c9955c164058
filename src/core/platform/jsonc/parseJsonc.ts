import { parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';

/**
 * JSON and JSONC (comments and trailing commas, as VS Code writes settings.json) read with
 * jsonc-parser, VS Code's own parser, with failures that say where they are: Node 20's JSON.parse
 * often does not. A thin wrapper only because callers want one result shape and line/column.
 */

export interface JsonParseFailure {
  /** What is wrong, e.g. "expected a value". */
  message: string;
  offset: number;
  /** 1-based. */
  line: number;
  column: number;
}

export type JsonParseResult = { ok: true; value: unknown } | { ok: false; error: JsonParseFailure };

export interface JsoncOptions {
  /** Allow // and /* *\/ comments and a comma before } or ]. */
  jsonc?: boolean;
}

const MESSAGES: Record<string, string> = {
  InvalidSymbol: 'an unexpected character',
  InvalidNumberFormat: 'a malformed number',
  PropertyNameExpected: 'expected a property name in double quotes',
  ValueExpected: 'expected a value',
  ColonExpected: 'expected ":" after a property name',
  CommaExpected: 'expected "," before the next value',
  CloseBraceExpected: 'expected "}" to close an object',
  CloseBracketExpected: 'expected "]" to close an array',
  EndOfFileExpected: 'unexpected text after the end of the value',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'a /* comment is never closed',
  UnexpectedEndOfString: 'a string is never closed',
  UnexpectedEndOfNumber: 'a number ends too early',
  InvalidUnicode: 'an invalid \\u escape',
  InvalidEscapeCharacter: 'an invalid escape character',
  InvalidCharacter: 'a control character inside a string',
};

/** Deeper than this is refused rather than risking the stack on a hostile file. */
const MAX_DEPTH = 1000;

export function parseJsonc(text: string, options: JsoncOptions = {}): JsonParseResult {
  const errors: ParseError[] = [];
  const jsonc = options.jsonc ?? false;
  let tree: Node | undefined;
  try {
    tree = parseTree(text, errors, { allowTrailingComma: jsonc, disallowComments: !jsonc, allowEmptyContent: false });
  } catch {
    // jsonc-parser recurses per level: a hostile file nested 100k deep overflows the stack.
    return { ok: false, error: { message: 'the JSON is nested too deeply', ...position(text, 0) } };
  }
  const first = errors[0];
  if (first) {
    const code = printParseErrorCode(first.error);
    const atEnd = first.offset >= text.trimEnd().length;
    let message = MESSAGES[code] ?? code;
    if (code === 'ValueExpected' && atEnd) message = 'expected a value, found the end of the text';
    if (!jsonc && code === 'ValueExpected' && /,\s*$/.test(text.slice(0, first.offset)))
      message = 'expected a value (JSON allows no trailing comma)';
    return { ok: false, error: { message, ...position(text, first.offset) } };
  }
  if (!tree) return { ok: false, error: { message: 'expected a value, found the end of the text', ...position(text, text.length) } };
  try {
    return { ok: true, value: valueOf(tree, 0) };
  } catch {
    return { ok: false, error: { message: 'the JSON is nested too deeply', ...position(text, 0) } };
  }
}

/** The node's value; `__proto__` stays a plain own key, as JSON.parse keeps it. */
function valueOf(node: Node, depth: number): unknown {
  if (depth > MAX_DEPTH) throw new RangeError('too deep');
  switch (node.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const property of node.children ?? []) {
        const [key, value] = property.children ?? [];
        if (!key || !value) continue;
        Object.defineProperty(out, String(key.value), {
          value: valueOf(value, depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    case 'array':
      return (node.children ?? []).map((child) => valueOf(child, depth + 1));
    default:
      return node.value;
  }
}

function position(text: string, offset: number): { offset: number; line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { offset, line, column: offset - lineStart + 1 };
}
