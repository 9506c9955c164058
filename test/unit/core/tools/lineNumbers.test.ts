import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Script } from '../../../../src/core/models/scriptSchema';
import { withoutLineNumbers } from '../../../../src/core/tools/builtin/lineNumbers';
import { makeWorld, runScript } from './toolWorld';

/**
 * Issue 39 item 8: read_file shows line numbers as `cat -n` prints them, so a review can cite
 * lines, and edit_file takes the numbers off when a model pastes them back, but only from text
 * numbered that way on every line, so real text that starts with digits is left as it is.
 */

let world: Awaited<ReturnType<typeof makeWorld>>;
beforeEach(async () => {
  world = await makeWorld();
});
afterEach(() => world.cleanup());

const at = (rel: string) => join(world.root, rel);
type Call = { tool: string; input: unknown };

/** Each list of calls is one step of the supervisor; returns the outputs in call order. */
async function steps(...calls: Call[][]): Promise<Record<string, unknown>[]> {
  const script: Script = { agents: { supervisor: [...calls.map((toolCalls) => ({ toolCalls })), { text: 'done' }] } };
  const r = await runScript(script, { root: world.root, settings: { approval: 'trust' } });
  const finished = r.ofKind('tool.finished');
  return r.ofKind('tool.started').map((s) => finished.find((f) => f.toolCallId === s.toolCallId)!.output as Record<string, unknown>);
}

const read = (path: string, extra: object = {}) => ({ tool: 'read_file', input: { path, ...extra } });
const edit = (path: string, oldText: string, newText: string) => ({ tool: 'edit_file', input: { path, oldText, newText } });

describe('read_file', () => {
  it('numbers lines exactly as cat -n does, for a whole file and for a range', async () => {
    const lines = Array.from({ length: 12 }, (_, i) => (i === 4 ? '' : `\tline ${i + 1} with a tab`));
    await writeFile(at('a.ts'), `${lines.join('\n')}\n`);
    const catN = execFileSync('cat', ['-n', at('a.ts')], { encoding: 'utf8' });
    const [whole, range] = await steps([read('a.ts'), read('a.ts', { startLine: 9, endLine: 11 })]);
    expect(whole!.content).toBe(catN.replace(/\n$/, ''));
    expect(range).toEqual({ path: 'a.ts', startLine: 9, endLine: 11, totalLines: 12, content: catN.split('\n').slice(8, 11).join('\n') });
  });
});

describe('edit_file with numbers pasted from read_file', () => {
  it('oldText and newText copied with their numbers: the numbers are ignored, and the line is right', async () => {
    await writeFile(at('a.ts'), 'const a = 1;\n\nfunction f() {\n  return a;\n}\n');
    const [, edited] = await steps(
      [read('a.ts')],
      [
        edit(
          'a.ts',
          '     2\t\n     3\tfunction f() {\n     4\t  return a;',
          '     2\t\n     3\tfunction f() {\n  // doubled\n     4\t  return a * 2;',
        ),
      ],
    );
    expect(edited).toEqual({ path: 'a.ts', line: 2 });
    expect(await readFile(at('a.ts'), 'utf8')).toBe('const a = 1;\n\nfunction f() {\n  // doubled\n  return a * 2;\n}\n');
  });

  it('a blank line whose tab was trimmed still counts as numbered', async () => {
    await writeFile(at('a.ts'), 'one\n\nthree\n');
    const [, edited] = await steps(
      [read('a.ts')],
      [edit('a.ts', '     1\tone\n     2\n     3\tthree', '     1\tuno\n     2\n     3\ttres')],
    );
    expect(edited).toEqual({ path: 'a.ts', line: 1 });
    expect(await readFile(at('a.ts'), 'utf8')).toBe('uno\n\ntres\n');
  });

  it('text that is in the file as written is taken as written: a file of numbered lines, a TSV of numbers', async () => {
    await writeFile(at('expected.txt'), '     1\talpha\n     2\tbeta\n');
    await writeFile(at('data.tsv'), '1\tone\n2\ttwo\n');
    const [, , numbered, tsv] = await steps(
      [read('expected.txt'), read('data.tsv')],
      [edit('expected.txt', '     2\tbeta', '     2\tgamma'), edit('data.tsv', '2\ttwo', '2\tzwei')],
    );
    expect([numbered, tsv]).toEqual([
      { path: 'expected.txt', line: 2 },
      { path: 'data.tsv', line: 2 },
    ]);
    expect(await readFile(at('expected.txt'), 'utf8')).toBe('     1\talpha\n     2\tgamma\n');
    expect(await readFile(at('data.tsv'), 'utf8')).toBe('1\tone\n2\tzwei\n');
  });

  it('numbers that do not run one after another, or lines without them, are not taken off', async () => {
    await writeFile(at('a.ts'), 'one\ntwo\nthree\n');
    const [, skipped, partly] = await steps(
      [read('a.ts')],
      [edit('a.ts', '     1\tone\n     3\tthree', 'x'), edit('a.ts', '     1\tone\ntwo', 'x')],
    );
    expect(skipped!.error).toMatch(/not found in a.ts/);
    expect(partly!.error).toMatch(/not found in a.ts/);
    expect(await readFile(at('a.ts'), 'utf8')).toBe('one\ntwo\nthree\n');
  });
});

describe('withoutLineNumbers', () => {
  it('takes only the cat -n shape: six columns, right-aligned, a tab', () => {
    expect(withoutLineNumbers('     9\ta\n    10\tb\n')).toBe('a\nb\n');
    expect(withoutLineNumbers('999999\ta\n1000000\tb')).toBe('a\nb');
    expect(withoutLineNumbers('9\ta')).toBeUndefined();
    expect(withoutLineNumbers('      9\ta')).toBeUndefined();
    expect(withoutLineNumbers('     9 a')).toBeUndefined();
    expect(withoutLineNumbers('2024\tyear')).toBeUndefined();
  });
});
