import type { Node } from '@vscode/tree-sitter-wasm';

/**
 * A shell word as the pieces bash expands: literal characters (quoted or not, since only unquoted
 * ones take part in brace, tilde and glob expansion) and pieces whose value is known only when the
 * command runs (`$X`, `$(…)`, `$((…))`). tree-sitter does not expand anything: `{a,b}` is plain text
 * to it, so the judge expands what it can itself (expandWord.ts).
 */
export type Piece = { text: string; quoted: boolean } | { dynamic: string; variable: boolean };

export function wordPieces(node: Node): Piece[] {
  const out: Piece[] = [];
  collect(node, out);
  return out;
}

function collect(node: Node, out: Piece[]): void {
  switch (node.type) {
    case 'word':
    case 'number':
    case 'brace_expression':
    case 'command_name':
      if (node.type === 'command_name' && node.namedChildCount > 0) return collectChildren(node, out, false);
      return unquoted(node.text, out);
    case 'raw_string':
      out.push({ text: node.text.slice(1, -1), quoted: true });
      return;
    case 'ansi_c_string': {
      const decoded = decodeAnsiC(node.text.slice(2, -1));
      out.push(decoded === undefined ? { dynamic: node.text, variable: false } : { text: decoded, quoted: true });
      return;
    }
    case 'string':
    case 'translated_string':
      return collectChildren(node, out, true);
    case 'string_content':
      out.push({ text: doubleQuoted(node.text), quoted: true });
      return;
    case 'concatenation':
      return collectChildren(node, out, false);
    case 'simple_expansion':
    case 'expansion':
      out.push({ dynamic: node.text, variable: true });
      return;
    default:
      // Substitutions, arithmetic, extended globs and whatever else: known only when it runs.
      out.push({ dynamic: node.text, variable: false });
  }
}

/** The children in order, and the text between them (anonymous tokens such as `{`, `,`) as it is. */
function collectChildren(node: Node, out: Piece[], insideQuotes: boolean): void {
  const text = node.text;
  const base = node.startIndex;
  // A double-quoted string's own quotes are not part of the word.
  let at = insideQuotes ? 1 : 0;
  const end = insideQuotes ? text.length - 1 : text.length;
  for (const child of node.namedChildren) {
    if (!child) continue;
    const from = child.startIndex - base;
    if (from > at) gap(text.slice(at, from), insideQuotes, out);
    collect(child, out);
    at = child.endIndex - base;
  }
  if (end > at) gap(text.slice(at, end), insideQuotes, out);
}

function gap(text: string, insideQuotes: boolean, out: Piece[]): void {
  if (insideQuotes) out.push({ text: doubleQuoted(text), quoted: true });
  else unquoted(text, out);
}

/** Unquoted text: a backslash quotes the next character, a backslash-newline vanishes. */
function unquoted(text: string, out: Piece[]): void {
  let plain = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && i + 1 < text.length) {
      if (plain) out.push({ text: plain, quoted: false });
      plain = '';
      if (text[i + 1] !== '\n') out.push({ text: text[i + 1]!, quoted: true });
      i++;
    } else plain += c;
  }
  if (plain) out.push({ text: plain, quoted: false });
}

/** Inside double quotes a backslash escapes only `$`, backtick, `"`, `\` and newline. */
function doubleQuoted(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_, c: string) => (c === '\n' ? '' : c));
}

const C_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** `$'…'` quoting; undefined for an escape it does not know, which then counts as unknown. */
function decodeAnsiC(body: string): string | undefined {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const next = body[i + 1];
    if (next === undefined) return undefined;
    if (C_ESCAPES[next] !== undefined) {
      out += C_ESCAPES[next];
      i++;
    } else if (next === 'x' && /^[0-9a-f]{1,2}/i.test(body.slice(i + 2))) {
      const hex = /^[0-9a-f]{1,2}/i.exec(body.slice(i + 2))![0];
      out += String.fromCharCode(parseInt(hex, 16));
      i += 1 + hex.length;
    } else if (/[0-7]/.test(next)) {
      const oct = /^[0-7]{1,3}/.exec(body.slice(i + 1))![0];
      out += String.fromCharCode(parseInt(oct, 8));
      i += oct.length;
    } else return undefined;
  }
  return out;
}
