/**
 * A small JSON parser that says where it failed (Node 20's JSON.parse often does not), and that
 * optionally reads JSONC as VS Code writes settings.json: comments and trailing commas.
 * (jsonc-parser's CommonJS build cannot be bundled by esbuild, and its ESM build cannot be loaded
 * by Node, so this stays dependency-free.)
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

class Failure extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;

class Parser {
  private at = 0;

  constructor(
    private readonly text: string,
    private readonly jsonc: boolean,
  ) {}

  parseDocument(): unknown {
    const value = this.value();
    this.space();
    if (this.at < this.text.length) throw new Failure('unexpected text after the end of the JSON value', this.at);
    return value;
  }

  private space(): void {
    const t = this.text;
    for (;;) {
      const c = t.charCodeAt(this.at);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.at++;
      else if (this.jsonc && c === 0x2f && t[this.at + 1] === '/') {
        const end = t.indexOf('\n', this.at);
        this.at = end < 0 ? t.length : end + 1;
      } else if (this.jsonc && c === 0x2f && t[this.at + 1] === '*') {
        const end = t.indexOf('*/', this.at + 2);
        if (end < 0) throw new Failure('a /* comment is never closed', this.at);
        this.at = end + 2;
      } else return;
    }
  }

  private value(): unknown {
    this.space();
    const c = this.text[this.at];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    for (const [word, value] of [['true', true], ['false', false], ['null', null]] as const) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return value;
      }
    }
    NUMBER.lastIndex = this.at;
    const number = NUMBER.exec(this.text);
    if (number) {
      this.at += number[0].length;
      return Number(number[0]);
    }
    throw new Failure(this.at >= this.text.length ? 'expected a value, found the end of the text' : 'expected a value', this.at);
  }

  private string(): string {
    STRING.lastIndex = this.at;
    const match = STRING.exec(this.text);
    if (!match) throw new Failure('a string is not closed, or has a bad escape or a raw control character', this.at);
    this.at += match[0].length;
    return JSON.parse(match[0]) as string;
  }

  /** After a comma: true when the list ends here (a trailing comma, allowed in JSONC). */
  private trailing(close: string): boolean {
    this.space();
    if (this.text[this.at] !== close) return false;
    if (!this.jsonc) throw new Failure(`a comma before "${close}" (a trailing comma) is not allowed in JSON`, this.at);
    return true;
  }

  private object(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.at++;
    this.space();
    if (this.text[this.at] === '}') {
      this.at++;
      return out;
    }
    for (;;) {
      this.space();
      if (this.text[this.at] !== '"') throw new Failure('expected a property name in double quotes', this.at);
      const key = this.string();
      this.space();
      if (this.text[this.at] !== ':') throw new Failure('expected ":" after the property name', this.at);
      this.at++;
      // defineProperty, so a "__proto__" key is data, as with JSON.parse, not a prototype change.
      Object.defineProperty(out, key, { value: this.value(), enumerable: true, writable: true, configurable: true });
      this.space();
      const c = this.text[this.at++];
      if (c === '}') return out;
      if (c !== ',') throw new Failure('expected "," or "}" after a property value', this.at - 1);
      if (this.trailing('}')) {
        this.at++;
        return out;
      }
    }
  }

  private array(): unknown[] {
    const out: unknown[] = [];
    this.at++;
    this.space();
    if (this.text[this.at] === ']') {
      this.at++;
      return out;
    }
    for (;;) {
      out.push(this.value());
      this.space();
      const c = this.text[this.at++];
      if (c === ']') return out;
      if (c !== ',') throw new Failure('expected "," or "]" after an array element', this.at - 1);
      if (this.trailing(']')) {
        this.at++;
        return out;
      }
    }
  }
}

function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/** Parses JSON (or JSONC with `{ jsonc: true }`); a failure gives its message, offset, line and column. */
export function parseJsonc(text: string, options: JsoncOptions = {}): JsonParseResult {
  // A byte order mark is not JSON, but editors write one; it is not worth an error.
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return { ok: true, value: new Parser(body, options.jsonc === true).parseDocument() };
  } catch (error) {
    if (error instanceof RangeError) return { ok: false, error: { message: 'the JSON is nested too deeply', offset: 0, line: 1, column: 1 } };
    if (!(error instanceof Failure)) throw error;
    const offset = error.offset + (body === text ? 0 : 1);
    return { ok: false, error: { message: error.message, offset, ...position(text, offset) } };
  }
}
