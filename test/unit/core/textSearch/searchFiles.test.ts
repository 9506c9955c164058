import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { regexWorkersStarted } from '../../../../src/core/tools/search/textSearch/regexWorkerPool';
import { PatternError, searchFiles, type TextSearchRequest } from '../../../../src/core/tools/search/textSearch/searchFiles';
import { makeWorld } from '../tools/toolWorld';

// (a+)+$ against thirty a's and a "!" backtracks about 2^30 times: many seconds on one thread.
// Small enough that a regression (matching on the caller's thread) fails these tests instead of hanging them.
const EVIL = '(a+)+$';
const EVIL_LINE = `${'a'.repeat(30)}!`;

let world: Awaited<ReturnType<typeof makeWorld>>;
beforeEach(async () => {
  world = await makeWorld();
  await writeFile(join(world.root, 'a.txt'), 'alpha\nbeta\nalphabet\n');
  await writeFile(join(world.root, 'b.txt'), `${EVIL_LINE}\n`);
});
afterEach(() => world.cleanup());

const request = (over: Partial<TextSearchRequest>): TextSearchRequest => ({
  root: world.root,
  pattern: 'alpha',
  caseSensitive: false,
  include: () => true,
  signal: new AbortController().signal,
  deadlineMs: 10_000,
  maxMatches: 200,
  maxFileBytes: 1024 * 1024,
  maxVisited: 1000,
  ...over,
});

describe('searchFiles', () => {
  it('finds matching lines in walk order, and stops at the match cap', async () => {
    expect(await searchFiles(request({}))).toEqual({
      matches: ['a.txt:1: alpha', 'a.txt:3: alphabet'],
      searched: 2,
      capped: false,
      stoppedEarly: false,
      timedOut: false,
    });
    expect(await searchFiles(request({ maxMatches: 1 }))).toMatchObject({ matches: ['a.txt:1: alpha'], capped: true });
  });

  it('reports a bad pattern in words, before anything runs', async () => {
    await expect(searchFiles(request({ pattern: '(' }))).rejects.toThrow(PatternError);
  });

  it('ends a pattern that backtracks without end at its deadline, and the event loop stays free meanwhile', async () => {
    let settled = false;
    const search = searchFiles(request({ pattern: EVIL, deadlineMs: 300 })).finally(() => (settled = true));
    // A file read needs the event loop: it completes while the search is still running.
    expect(await readFile(join(world.root, 'a.txt'), 'utf8')).toContain('alpha');
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    const result = await search;
    expect(result.timedOut).toBe(true);
    // What was found by then is kept; the bad line never finished.
    expect(result.matches.every((m) => m.startsWith('a.txt:'))).toBe(true);
  });

  it("stops at once when the signal aborts, with the signal's reason", async () => {
    const controller = new AbortController();
    const search = searchFiles(request({ pattern: EVIL, deadlineMs: 60_000, signal: controller.signal }));
    await readFile(join(world.root, 'a.txt'));
    controller.abort(new Error('cancelled by the user'));
    await expect(search).rejects.toThrow('cancelled by the user');
  });

  it('keeps its worker warm: the next search starts none', async () => {
    await searchFiles(request({}));
    const before = regexWorkersStarted();
    expect(await searchFiles(request({ pattern: 'beta' }))).toMatchObject({ matches: ['a.txt:2: beta'] });
    expect(regexWorkersStarted()).toBe(before);
  });

  it('leaves no stuck worker behind a deadline: the next search starts its own and answers', async () => {
    expect((await searchFiles(request({ pattern: EVIL, deadlineMs: 300 }))).timedOut).toBe(true);
    const before = regexWorkersStarted();
    expect(await searchFiles(request({}))).toMatchObject({ matches: ['a.txt:1: alpha', 'a.txt:3: alphabet'], timedOut: false });
    expect(regexWorkersStarted()).toBe(before + 1);
  });

  it('never hands the replies of a search cut short to the next one', async () => {
    // Long files, so that the worker is still matching the ones in flight when the next search begins.
    const filler = 'a line of filler text\n'.repeat(20_000);
    for (let i = 0; i < 40; i++)
      await writeFile(join(world.root, `many${String(i).padStart(2, '0')}.txt`), `alpha here\nomega there\n${filler}`);
    for (let round = 0; round < 5; round++) {
      expect((await searchFiles(request({ maxMatches: 1 }))).matches).toEqual(['a.txt:1: alpha']);
      const omega = await searchFiles(request({ pattern: 'omega' }));
      expect(omega.matches).toEqual(Array.from({ length: 40 }, (_, i) => `many${String(i).padStart(2, '0')}.txt:2: omega there`));
    }
  });
});
