import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ripgrepOnPath } from '../../../../src/core/tools/search/ripgrep/locateRipgrep';
import { ripgrepPattern } from '../../../../src/core/tools/search/ripgrep/ripgrepPattern';

const run = promisify(execFile);
const rg = ripgrepOnPath();

/** Lines as bytes: plain, non-ASCII, and each kind of sequence that is not valid UTF-8. */
const LINES: Buffer[] = [
  'caf\u00e9 au lait',
  'a.b and a-b',
  'tab\there',
  'x\uFFFDy real replacement character',
  'Stra\u00dfe STRASSE',
  'emoji \u{1F600} face',
  'path/to/file.ts',
  '[brackets] and ^caret$',
].map((s) => Buffer.from(s));
LINES.push(
  Buffer.from('caf\xe9 au lait latin1', 'latin1'),
  Buffer.from([0x78, 0xe2, 0x82, 0x79]), // a cut 3-byte sequence: one U+FFFD
  Buffer.from([0x78, 0xed, 0xa0, 0x80, 0x79]), // an encoded surrogate: three
  Buffer.from([0x78, 0xc0, 0x80, 0x79]), // an overlong NUL: two
  Buffer.from([0x78, 0xf0, 0x90, 0x80, 0x79]), // a cut 4-byte sequence: one
  Buffer.from([0x78, 0x80, 0xbf, 0x79]), // lone continuation bytes
  Buffer.from([0x78, 0xff, 0xfe, 0x79]),
);

const PATTERNS = [
  'caf. au',
  'caf[^x] au',
  'x.y',
  'x..y',
  'x...y',
  'x.{1,3}y',
  'x[^a-z]+y',
  'x.*y',
  '^x.',
  'a\\.b',
  'a\\/b|to\\/file',
  'x\uFFFDy',
  '[\u00e9\uFFFD] au',
  'stra(ss|\u00df)e',
  '\u{1F600}',
  '^\\[brackets\\]',
  'caret\\$$',
  '[a-c]\\.[b-d]',
];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'subagents-rgpattern-'));
  await Promise.all(LINES.map((line, i) => writeFile(join(dir, `line${i}.txt`), Buffer.concat([line, Buffer.from('\n')]))));
  await writeFile(join(dir, 'bom.txt'), Buffer.from('\uFEFFx-y after a bom\n'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The files real ripgrep picks with the translated pattern, as the search runs it. */
async function ripgrepPicks(pattern: string, caseSensitive: boolean): Promise<string[]> {
  const args = [
    '--no-config',
    '--null',
    '--files-with-matches',
    '--text',
    '--encoding',
    'none',
    '--crlf',
    caseSensitive ? '--case-sensitive' : '--ignore-case',
    '--regexp',
    pattern,
    '.',
  ];
  const { stdout } = await run(rg!, args, { cwd: dir }).catch((e: { code?: number; stdout?: string }) =>
    e.code === 1 ? { stdout: '' } : Promise.reject(e),
  );
  return stdout
    .split('\0')
    .filter(Boolean)
    .map((p) => p.replace(/^\.\//, ''))
    .sort();
}

/** The files whose text, as node decodes it (and the search drops a leading byte-order mark), has a line the JavaScript pattern matches. */
function javascriptPicks(pattern: string, caseSensitive: boolean): string[] {
  const re = new RegExp(pattern, caseSensitive ? 'u' : 'iu');
  const files = [...LINES.map((line, i) => [`line${i}.txt`, line.toString('utf8')] as const), ['bom.txt', 'x-y after a bom'] as const];
  return files
    .filter(([, text]) => re.test(text))
    .map(([name]) => name)
    .sort();
}

describe('the pattern ripgrep prefilters with', () => {
  it('has ripgrep to test with', () => expect(rg).toBeDefined());

  for (const pattern of [...PATTERNS, '^x-y after']) {
    for (const caseSensitive of [true, false]) {
      it(`finds every line JavaScript finds: ${JSON.stringify(pattern)}${caseSensitive ? '' : ', ignoring case'}`, async () => {
        const translated = ripgrepPattern(pattern);
        expect(translated).toBeDefined();
        const wanted = javascriptPicks(pattern, caseSensitive);
        const picked = await ripgrepPicks(translated!, caseSensitive);
        expect(wanted.filter((f) => !picked.includes(f))).toEqual([]);
      });
    }
  }

  it('declines what ripgrep reads differently, and what JavaScript refuses', () => {
    for (const pattern of [
      '(?<=a)b',
      '(?<n>a)\\k<n>',
      '(a)\\1',
      '\\bword\\b',
      'a\\sb',
      '\\p{L}',
      '\\u00e9',
      '[[a]]',
      '[[:alpha:]]',
      '[]a]',
      '[a&&b]',
      '(',
      'a{',
    ]) {
      expect(ripgrepPattern(pattern), pattern).toBeUndefined();
    }
  });
});
