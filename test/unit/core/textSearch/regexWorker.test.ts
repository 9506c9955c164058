import { describe, expect, it } from 'vitest';
import { regexWorkerMain, type RegexWorkerMessage, type RegexWorkerReply } from '../../../../src/core/tools/search/textSearch/regexWorker';

/**
 * The worker's lines are the file's text cut as `text.split(/\r?\n/)` cuts it (what the editor and
 * the walker's earlier matcher showed), each tested up to maxTestedChars: run here on its own port.
 */
function matchAll(pattern: string, text: string, limit = 1000, maxTestedChars = 20): string[] {
  let handler: (message: RegexWorkerMessage) => void = () => {};
  let reply: RegexWorkerReply | undefined;
  regexWorkerMain({
    on: (_event: string, listener: (message: RegexWorkerMessage) => void) => (handler = listener),
    postMessage: (r: RegexWorkerReply) => (reply = r),
  } as never);
  handler({ search: { pattern, flags: 'u', maxTestedChars, maxShownChars: 300 } });
  handler({ file: { path: 'f', bytes: new Uint8Array(Buffer.from(text)), limit } });
  return reply!.matches;
}

/** What the matcher answered when it split the text: the reference. */
function reference(pattern: string, text: string, limit = 1000, maxTestedChars = 20): string[] {
  const re = new RegExp(pattern, 'u');
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const lines = body === '' ? [] : body.split(/\r?\n/);
  const out: string[] = [];
  for (let i = 0; i < lines.length && out.length < limit; i++) {
    const line = lines[i]!.slice(0, maxTestedChars);
    if (re.test(line)) out.push(`f:${i + 1}: ${line.trim()}`);
  }
  return out;
}

const TEXTS = [
  'a\nb\n',
  'a\r\nb\r\n',
  '\r\n\r\n',
  'a\r\r\nb',
  'lone\rcr\n',
  'no end',
  '\n',
  '\uFEFFbom\nx\n',
  `${'x'.repeat(30)}end\nshort end\n`,
  'a\n\n\nb',
  'tail\r',
];
const PATTERNS = ['^$', 'end$', '^', 'b', '\\r', 'cr$', '^x+$', 'x{20}', '.'];

describe('the regex worker', () => {
  for (const pattern of PATTERNS) {
    it(`cuts and tests lines as split(/\\r?\\n/) does: ${pattern}`, () => {
      for (const text of TEXTS) expect(matchAll(pattern, text), JSON.stringify(text)).toEqual(reference(pattern, text));
    });
  }

  it('stops at the limit of matches in a file', () => {
    expect(matchAll('.', 'a\nb\nc\n', 2)).toEqual(['f:1: a', 'f:2: b']);
  });

  it('reads a NUL among the first 8192 characters as binary, and one after them as text', () => {
    expect(matchAll('x', `x\n${'\u0000'}`)).toEqual([]);
    expect(matchAll('x', `${'y'.repeat(8192)}\u0000\nx\n`)).toEqual(['f:2: x']);
  });
});
