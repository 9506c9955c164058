import { spawn } from 'node:child_process';
import { lstat, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { JsonlThreadStore } from '../../../../src/core/storage/threads/jsonlThreadStore';
import { ThreadBusyError } from '../../../../src/core/storage/threads/threadLeases';
import { runEventSchema } from '../../../../src/shared/events';
import { buildStoreProcess, startStoreProcess } from './storeProcess';

// Two real processes on one store directory (two windows, or a window and `subagents run`).

let script: string;
let dir: string;
beforeAll(async () => {
  script = await buildStoreProcess();
}, 60_000);
afterAll(async () => {
  await rm(join(script, '..'), { recursive: true, force: true });
});
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'two-writers-'));
  return () => rm(dir, { recursive: true, force: true });
});

const top = (id: string) => ({ id, title: id, parentThreadId: null, agent: 'supervisor' });

describe('two processes on one store', () => {
  it('append 10k events each to one thread: every line parses, seq strictly increases, nothing is lost', async () => {
    const a = startStoreProcess(script, ['append', dir, 't1', 'A', '10000', '500']);
    const b = startStoreProcess(script, ['append', dir, 't1', 'B', '10000', '500']);
    const [ra, rb] = await Promise.all([a.exited, b.exited]);
    expect(ra.stderr).toBe('');
    expect(rb.stderr).toBe('');
    expect([ra.code, rb.code]).toEqual([0, 0]);

    const lines = (await readFile(join(dir, 't1.jsonl'), 'utf8')).split('\n');
    expect(lines.pop()).toBe('');
    const events = lines.map((line) => runEventSchema.parse(JSON.parse(line)));
    expect(events).toHaveLength(20_000);
    events.forEach((e, i) => expect(e.seq).toBe(i + 1));
    const texts = events.map((e) => (e.kind === 'text.delta' ? e.text : ''));
    for (const writer of ['A', 'B']) {
      const mine = texts.filter((t) => t.startsWith(`${writer}:`));
      expect(mine).toEqual(Array.from({ length: 10_000 }, (_, i) => `${writer}:${i}`));
    }
    // They took turns (each holds the thread for a chunk), so the writers' chunks interleave.
    const switches = texts.filter((t, i) => i > 0 && t[0] !== texts[i - 1]![0]).length;
    expect(switches).toBeGreaterThan(2);
  }, 60_000);

  it('refuses the second process clearly while the first works in the thread, and lets it in after', async () => {
    const mine = new JsonlThreadStore({ dir });
    await mine.open(top('t1'));
    const other = startStoreProcess(script, ['append', dir, 't1', 'B', '3', '3']);
    // Its opens are refused while this process holds the thread; it ends only once it is let in.
    const theirs = new JsonlThreadStore({ dir: join(dir) });
    await expect(theirs.open(top('t1'))).rejects.toThrow(ThreadBusyError);
    await expect(theirs.open(top('t1'))).rejects.toThrow(/working in another window/);
    await mine.close('t1');
    const result = await other.exited;
    expect(result.code).toBe(0);
    const loaded = await mine.get('t1');
    expect(loaded?.events.map((e) => (e.kind === 'text.delta' ? e.text : e.kind))).toEqual(['B:0', 'B:1', 'B:2']);
  }, 30_000);

  it('merges the index when both write it, instead of one overwriting the other', async () => {
    const a = startStoreProcess(script, ['append', dir, 'ta', 'A', '50', '10']);
    const b = startStoreProcess(script, ['append', dir, 'tb', 'B', '50', '10']);
    await Promise.all([a.exited, b.exited]);
    const index = JSON.parse(await readFile(join(dir, 'index.json'), 'utf8')) as { threads: { id: string }[] };
    expect(index.threads.map((t) => t.id).sort()).toEqual(['ta', 'tb']);
    // A window that loaded the index earlier sees the other's thread too.
    expect((await new JsonlThreadStore({ dir }).list()).map((t) => t.id).sort()).toEqual(['ta', 'tb']);
  }, 30_000);

  it('takes over at once from a writer that was killed, without waiting for its lease to go stale', async () => {
    const churn = startStoreProcess(script, ['churn', dir, '7']);
    await churn.said('ready');
    churn.kill('SIGKILL');
    await churn.exited;
    const store = new JsonlThreadStore({ dir, recoverInterrupted: true, leaseStaleMs: 60_000 });
    for (const meta of await store.list()) {
      await store.open(top(meta.id));
      await store.close(meta.id);
    }
  }, 30_000);
});

// Killed at the narrowest points of a lease: as its lock is linked, and as it is to be removed. The
// thread must be free for the next process at once, not "working in another window" until the
// lock goes stale: the lock is a link to its holder's note, so it is never on disk without the
// name of the process that holds it.
describe.each(['die-taking', 'die-giving-back'])('a process killed in its lease (%s)', (mode) => {
  it('leaves the thread free for the next process at once, and no lock behind', async () => {
    const dead = startStoreProcess(script, [mode, dir, 't1']);
    const exit = await dead.exited;
    expect(exit.stderr).toBe('');
    expect(exit.signal).toBe('SIGKILL');
    // It died holding the lock (the case that needs breaking), which names it.
    expect(await readFile(join(dir, 't1.jsonl.lock'), 'utf8')).toMatch(new RegExp(`^${encodeURIComponent(hostname())}@\\d+#[0-9a-f]+$`));

    const next = new JsonlThreadStore({ dir, recoverInterrupted: true });
    await next.open(top('t1'));
    await next.close('t1');
    await next.closeAll();
    next.dispose();
    expect((await readdir(dir)).filter((f) => f.includes('.lock'))).toEqual([]);
    // The dead process's note went with the next one's first lease here; the next one's, at its exit.
    expect(await readdir(join(dir, '.owners'))).toEqual([`${encodeURIComponent(hostname())}@${process.pid}`]);
  });
});

// Two processes meet one abandoned lock at once: both judge it abandoned, one moves it aside and
// takes the thread, then the other moves aside what is now the new holder's lock (which on ext4
// often has the freed inode of the one judged). The breaker judges what it moved again and puts a
// lock that is not abandoned back, never over a lock a third process took meanwhile: a hard link,
// or without hard links a new file made with O_EXCL.
describe.each([
  ['', {}],
  [', on a file system without hard links', { SUBAGENTS_TEST_NO_HARD_LINKS: '1' }],
])('two breakers of one lock%s', (_, env) => {
  const host = encodeURIComponent(hostname());
  /** Thread t1 on disk, its lease left by a process of this machine that has ended. */
  const abandonedLease = async () => {
    const first = new JsonlThreadStore({ dir });
    await first.open(top('t1'));
    await first.close('t1');
    await first.closeAll();
    first.dispose();
    const ended = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => ended.once('exit', resolve));
    await writeFile(join(dir, 't1.jsonl.lock'), `${host}@${ended.pid!}#abcdef12`);
  };

  /**
   * Runs a breaker on the abandoned lease while other holders (lock texts) take it in the race;
   * expects the breaker refused, `kept` the lock, and nothing moved aside left behind.
   */
  const breakRacedKeeps = async (kept: string, holders: string[]) => {
    const exit = await startStoreProcess(script, ['break-raced', dir, 't1', ...holders], env).exited;
    expect(exit.stderr).toBe('');
    // (Without hard links it also says how many links were refused.)
    expect(exit.stdout.split('\n')[0]).toBe('refused');
    expect(await readFile(join(dir, 't1.jsonl.lock'), 'utf8')).toBe(kept);
    expect((await readdir(dir)).filter((f) => f.includes('.broken-'))).toEqual([]);
  };
  // The other holders: this test's own process (alive, of this machine) under other tokens.
  const second = `${host}@${process.pid}#0123abcd`;
  const third = `${host}@${process.pid}#4567cdef`;

  it('the one that moves aside a lock the other has just taken puts it back, and is refused', async () => {
    await abandonedLease();
    await breakRacedKeeps(second, [second]);
    // As the second last refreshed it (3 s ago, set by the racing process), not as now.
    expect(Date.now() - (await lstat(join(dir, 't1.jsonl.lock'))).mtimeMs).toBeGreaterThan(2500);
  });

  it('leaves alone a lock a third process took before the put-back (the second finds its own lost at its next refresh)', async () => {
    await abandonedLease();
    await breakRacedKeeps(third, [second, third]);
  });

  it('leaves alone a lock a third process took at the last moment, just before the put-back', async () => {
    await abandonedLease();
    await breakRacedKeeps(third, [second, third, 'late']);
  });
});

it('a window lists the run of a process killed holding its thread as interrupted at once, not as running until its lease goes stale', async () => {
  const dead = startStoreProcess(script, ['die-giving-back', dir, 't1']);
  expect((await dead.exited).signal).toBe('SIGKILL');
  const window = new JsonlThreadStore({ dir, leaseStaleMs: 60_000 });
  expect((await window.list()).map((t) => [t.id, t.status])).toEqual([['t1', 'interrupted']]);
  window.dispose();
});

// A file system without hard links (FAT, some network shares): each lock is a file of its own,
// made with O_EXCL, its holder's name written in it.
describe('two processes on a store whose file system has no hard links', () => {
  it('still take turns: every line parses, seq strictly increases, nothing is lost', async () => {
    const noLinks = { SUBAGENTS_TEST_NO_HARD_LINKS: '1' };
    const a = startStoreProcess(script, ['append', dir, 't1', 'A', '2000', '100'], noLinks);
    const b = startStoreProcess(script, ['append', dir, 't1', 'B', '2000', '100'], noLinks);
    const [ra, rb] = await Promise.all([a.exited, b.exited]);
    expect([ra.stderr, rb.stderr]).toEqual(['', '']);
    expect([ra.code, rb.code]).toEqual([0, 0]);
    // Each tried a link first and was refused.
    for (const r of [ra, rb]) expect(Number(/hard links refused: (\d+)/.exec(r.stdout)?.[1])).toBeGreaterThan(0);
    const events = (await readFile(join(dir, 't1.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => runEventSchema.parse(JSON.parse(line)));
    expect(events.map((e) => e.seq)).toEqual(Array.from({ length: 4000 }, (_, i) => i + 1));
    const texts = events.map((e) => (e.kind === 'text.delta' ? e.text : ''));
    for (const writer of ['A', 'B'])
      expect(texts.filter((t) => t.startsWith(`${writer}:`))).toEqual(Array.from({ length: 2000 }, (_, i) => `${writer}:${i}`));
    expect((await readdir(dir)).filter((f) => f.includes('.lock'))).toEqual([]);
    // Each removed its owner note at its exit.
    expect(await readdir(join(dir, '.owners'))).toEqual([]);
  }, 60_000);
});
