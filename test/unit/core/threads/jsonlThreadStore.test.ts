import type * as Fs from 'node:fs';
import { appendFile, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JsonlThreadStore } from '../../../../src/core/storage/threads/jsonlThreadStore';
import type { RunEvent, UnsequencedRunEvent } from '../../../../src/shared/events';
import { EMPTY_TREE, foldRunEvents } from '../../../../src/shared/runTree';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'threads-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const top = (id: string, title = 'Fix the bug\nand more') => ({ id, title, parentThreadId: null, agent: 'supervisor' });

function started(threadId: string, runId: string, ts: number, extra: Partial<UnsequencedRunEvent> = {}): UnsequencedRunEvent {
  return {
    v: 1,
    kind: 'run.started',
    threadId,
    runId,
    ts,
    parentRunId: null,
    agent: 'supervisor',
    agentPath: ['supervisor'],
    depth: 0,
    task: 'Fix the bug\nplease',
    model: 'scripted:s.json',
    ...extra,
  } as UnsequencedRunEvent;
}
const delta = (threadId: string, runId: string, ts: number, text: string): UnsequencedRunEvent => ({
  v: 1,
  kind: 'text.delta',
  threadId,
  runId,
  ts,
  text,
});
function finished(threadId: string, runId: string, ts: number): UnsequencedRunEvent {
  return {
    v: 1,
    kind: 'run.finished',
    threadId,
    runId,
    ts,
    status: 'ok',
    output: 'done',
    usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 },
    durationMs: 5,
  };
}

describe('JsonlThreadStore', () => {
  it('round-trips events and continues seq after reopening', async () => {
    const store = new JsonlThreadStore({ dir });
    const loaded = await store.open(top('t1'));
    expect(loaded.events).toEqual([]);
    expect(loaded.meta).toMatchObject({ id: 't1', title: 'Fix the bug\nand more', agent: 'supervisor', parentThreadId: null });
    const a = store.append(started('t1', 'r1', 100));
    const b = store.append(delta('t1', 'r1', 101, 'hel'));
    const c = store.append(delta('t1', 'r1', 102, 'lo'));
    expect([a.seq, b.seq, c.seq]).toEqual([1, 2, 3]);
    await store.close('t1');

    const again = new JsonlThreadStore({ dir });
    const reloaded = await again.get('t1');
    expect(reloaded?.events).toEqual([a, b, c]);
    expect(reloaded?.warnings).toEqual([]);
    await again.open(top('t1'));
    const d = again.append(finished('t1', 'r1', 103));
    expect(d.seq).toBe(4);
    await again.flush();
    const lines = (await readFile(join(dir, 't1.jsonl'), 'utf8')).split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[4]).toBe('');
    expect(lines.slice(0, 4).map((l) => (JSON.parse(l) as RunEvent).seq)).toEqual([1, 2, 3, 4]);
  });

  it('refuses appends to a thread that was not opened', () => {
    const store = new JsonlThreadStore({ dir });
    expect(() => store.append(delta('nope', 'r', 1, 'x'))).toThrow(/open\(\) it first/);
  });

  it('drops a torn last line, keeps every whole record and appends on a fresh line', async () => {
    const store = new JsonlThreadStore({ dir });
    await store.open(top('t1'));
    store.append(started('t1', 'r1', 100));
    store.append(delta('t1', 'r1', 101, 'a'));
    await store.close('t1');
    await appendFile(join(dir, 't1.jsonl'), '{"v":1,"kind":"text.delta","threadId":"t1","ru');

    const reader = new JsonlThreadStore({ dir });
    const readOnly = await reader.get('t1');
    expect(readOnly?.events.map((e) => e.seq)).toEqual([1, 2]);
    expect(readOnly?.warnings[0]).toMatch(/Dropped the torn last line 3 of thread file .*t1\.jsonl/);

    const writer = new JsonlThreadStore({ dir });
    await writer.open(top('t1'));
    expect(writer.append(delta('t1', 'r1', 102, 'b')).seq).toBe(3);
    await writer.flush();
    const after = await new JsonlThreadStore({ dir }).get('t1');
    expect(after?.warnings).toEqual([]);
    expect(after?.events.map((e) => e.seq)).toEqual([1, 2, 3]);
  });

  it('keeps a whole last record that only lacks its newline', async () => {
    const line = JSON.stringify({ ...started('t1', 'r1', 100), seq: 1 });
    await writeFile(join(dir, 't1.jsonl'), line);
    const store = new JsonlThreadStore({ dir });
    const loaded = await store.open(top('t1'));
    expect(loaded.events).toHaveLength(1);
    expect(store.append(delta('t1', 'r1', 101, 'x')).seq).toBe(2);
    await store.flush();
    const reread = await new JsonlThreadStore({ dir }).get('t1');
    expect(reread?.events.map((e) => e.kind)).toEqual(['run.started', 'text.delta']);
    expect(reread?.warnings).toEqual([]);
  });

  it('skips a bad line in the middle with a warning naming the line', async () => {
    const good = (seq: number) => JSON.stringify({ ...delta('t1', 'r1', 100 + seq, 'x'), seq });
    const lines = [JSON.stringify({ ...started('t1', 'r1', 100), seq: 1 }), good(2), '{not json', '{"v":2,"kind":"text.delta"}', good(5)];
    await writeFile(join(dir, 't1.jsonl'), `${lines.join('\n')}\n`);
    const loaded = await new JsonlThreadStore({ dir }).get('t1');
    expect(loaded?.events.map((e) => e.seq)).toEqual([1, 2, 5]);
    expect(loaded?.warnings).toHaveLength(2);
    expect(loaded?.warnings[0]).toMatch(/^Skipped line 3 of thread file .*: it is not JSON/);
    expect(loaded?.warnings[1]).toMatch(/^Skipped line 4 of .*: it is not a RunEvent/);
  });

  it('closes runs left open as interrupted, only when asked to', async () => {
    const crashed = new JsonlThreadStore({ dir });
    await crashed.open(top('t1'));
    crashed.append(started('t1', 'r1', 1000));
    crashed.append(delta('t1', 'r1', 1100, 'partial '));
    crashed.append(delta('t1', 'r1', 1250, 'answer'));
    crashed.append(started('t1', 'r2', 1300));
    crashed.append(finished('t1', 'r2', 1400));
    // Its process is gone: its lease with it (real processes killed mid-run: crashRecovery.test.ts).
    await crashed.closeAll();

    const viewer = await new JsonlThreadStore({ dir }).get('t1');
    expect(viewer?.events.filter((e) => e.kind === 'run.finished')).toHaveLength(1);

    const owner = new JsonlThreadStore({ dir, recoverInterrupted: true });
    const loaded = await owner.open(top('t1'));
    const closing = loaded.events.at(-1)!;
    expect(closing).toMatchObject({
      kind: 'run.finished',
      runId: 'r1',
      seq: 6,
      status: 'interrupted',
      output: 'partial answer',
      usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
      durationMs: 250,
    });
    expect(loaded.warnings.some((w) => w.includes('r1') && w.includes('interrupted'))).toBe(true);
    await owner.close('t1');
    // It is a real event on disk, and a second recovery finds nothing left to close.
    const again = await new JsonlThreadStore({ dir, recoverInterrupted: true }).open(top('t1'));
    expect(again.events.filter((e) => e.kind === 'run.finished').map((e) => e.runId)).toEqual(['r2', 'r1']);
    const tree = foldRunEvents(EMPTY_TREE, again.events);
    expect(tree.runs.r1?.state).toBe('interrupted');
  });

  it('rebuilds a missing or corrupt index from the thread files', async () => {
    const store = new JsonlThreadStore({ dir });
    await store.open(top('t1'));
    await store.open({ id: 'c1', title: 'child', parentThreadId: 't1', agent: 'explore' });
    store.append(started('t1', 'r1', 100));
    store.append(started('c1', 'r2', 200, { agent: 'explore', parentThreadId: 't1', parentRunId: 'r1', task: 'Look around\nnow' }));
    store.append(delta('c1', 'r2', 300, 'x'));
    await store.flush();

    for (const damage of [() => rm(join(dir, 'index.json')), () => writeFile(join(dir, 'index.json'), '{"version":1,"thr')]) {
      await damage();
      const threads = await new JsonlThreadStore({ dir }).list();
      expect(threads).toEqual([
        {
          id: 'c1',
          title: 'Look around',
          firstPrompt: 'Look around',
          parentThreadId: 't1',
          agent: 'explore',
          createdAt: 200,
          updatedAt: 300,
          runCount: 1,
          status: 'running',
          runIds: ['r2'],
        },
        {
          id: 't1',
          title: 'Fix the bug',
          // Rebuilt from the file: the first prompt's line, as a new thread's entry keeps it.
          firstPrompt: 'Fix the bug',
          parentThreadId: null,
          agent: 'supervisor',
          createdAt: 100,
          updatedAt: 100,
          runCount: 1,
          status: 'running',
          runIds: ['r1'],
        },
      ]);
      const index = JSON.parse(await readFile(join(dir, 'index.json'), 'utf8')) as { threads: unknown[] };
      expect(index.threads).toHaveLength(2);
    }
  });

  it('keeps turn counts, statuses and titles in index.json, for a list of hundreds that reads no thread file', async () => {
    const store = new JsonlThreadStore({ dir, indexDelayMs: 1 });
    await store.open(top('t1'));
    store.append(started('t1', 'r1', 100));
    store.append(finished('t1', 'r1', 200));
    await store.rename('t1', 'Rounding, renamed');
    await store.flush();
    await store.closeAll();
    store.dispose();
    // The thread file says nothing of the title, the count or the status: the index alone does.
    await writeFile(join(dir, 't1.jsonl'), '');
    const later = new JsonlThreadStore({ dir });
    expect(await later.list()).toMatchObject([{ id: 't1', title: 'Rounding, renamed', runCount: 1, status: 'ok' }]);
    later.dispose();
  });

  it('says a run is running only while some process holds its lease: one left by a dead process lists as interrupted', async () => {
    const store = new JsonlThreadStore({ dir, indexDelayMs: 1 });
    await store.open(top('t1'));
    store.append(started('t1', 'r1', 100));
    await store.flush();
    const other = new JsonlThreadStore({ dir });
    // This window's run works: the lease is held, so another window sees it running.
    expect(await other.list()).toMatchObject([{ id: 't1', status: 'running' }]);
    // The process went away without ending its run (closeAll gives the lease back as a dead process's is broken).
    await store.closeAll();
    store.dispose();
    expect(await other.list()).toMatchObject([{ id: 't1', status: 'interrupted' }]);
    // Whoever opens it next closes the run for real, and the index says so.
    const owner = new JsonlThreadStore({ dir, recoverInterrupted: true, indexDelayMs: 1 });
    await owner.get('t1');
    await owner.flush();
    expect(JSON.parse(await readFile(join(dir, 'index.json'), 'utf8'))).toMatchObject({
      threads: [{ id: 't1', status: 'interrupted', runCount: 1 }],
    });
    owner.dispose();
    other.dispose();
  });

  it('takes in a rename made in another window, and does not write back the old title', async () => {
    const first = new JsonlThreadStore({ dir, indexDelayMs: 1 });
    await first.open(top('t1', 'Fix the bug'));
    await first.flush();
    const second = new JsonlThreadStore({ dir, indexDelayMs: 1 });
    expect((await second.list())[0]?.title).toBe('Fix the bug');
    await second.rename('t1', 'Renamed over there');
    // The first window writes its index again (a new event) after the rename.
    first.append(delta('t1', 'r1', Date.now() + 5_000, 'x'));
    await first.flush();
    expect((await first.list())[0]?.title).toBe('Renamed over there');
    expect(JSON.parse(await readFile(join(dir, 'index.json'), 'utf8'))).toMatchObject({ threads: [{ title: 'Renamed over there' }] });
    await first.closeAll();
    first.dispose();
    second.dispose();
  });

  it('fills in the counts of an index written before it kept them, once, from the thread files', async () => {
    const store = new JsonlThreadStore({ dir, indexDelayMs: 1 });
    await store.open(top('t1'));
    store.append(started('t1', 'r1', 100));
    store.append(finished('t1', 'r1', 200));
    await store.flush();
    await store.closeAll();
    store.dispose();
    const legacy = {
      version: 1,
      threads: [{ id: 't1', title: 'Old title', parentThreadId: null, agent: 'supervisor', createdAt: 100, updatedAt: 200 }],
    };
    await writeFile(join(dir, 'index.json'), JSON.stringify(legacy));
    const later = new JsonlThreadStore({ dir });
    expect(await later.list()).toEqual([{ ...legacy.threads[0], runCount: 1, status: 'ok' }]);
    later.dispose();
  });

  it('finds the thread of a run through the index, also from another process and from an index written before it kept run ids', async () => {
    const store = new JsonlThreadStore({ dir });
    await store.open(top('t1'));
    await store.open({ id: 'c1', title: 'child', parentThreadId: 't1', agent: 'explore' });
    store.append(started('t1', 'r1', 100));
    store.append(started('c1', 'r2', 200, { agent: 'explore', parentThreadId: 't1', parentRunId: 'r1' }));
    await store.flush();
    const other = new JsonlThreadStore({ dir });
    expect([await other.threadOfRun('r1'), await other.threadOfRun('r2'), await other.threadOfRun('r9')]).toEqual(['t1', 'c1', undefined]);
    // An older index: no run ids in it. They are read from the thread files once.
    const index = JSON.parse(await readFile(join(dir, 'index.json'), 'utf8')) as { threads: { runIds?: string[] }[] };
    for (const t of index.threads) delete t.runIds;
    await writeFile(join(dir, 'index.json'), JSON.stringify(index));
    expect(await new JsonlThreadStore({ dir }).threadOfRun('r2')).toBe('c1');
  });

  it('keeps updatedAt in the index without rewriting it per event', async () => {
    const store = new JsonlThreadStore({ dir, indexDelayMs: 60_000, clock: { now: () => 1000 } });
    await store.open(top('t1'));
    await store.flush();
    const before = await readFile(join(dir, 'index.json'), 'utf8');
    for (let i = 0; i < 50; i++) store.append(delta('t1', 'r1', 5000 + i, 'x'));
    expect(await readFile(join(dir, 'index.json'), 'utf8')).toBe(before);
    await store.flush();
    const after = JSON.parse(await readFile(join(dir, 'index.json'), 'utf8')) as { threads: { updatedAt: number }[] };
    expect(after.threads[0]?.updatedAt).toBe(5049);
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    store.dispose();
  });

  it('opens a new thread without waiting for an index write, and a crash before the write loses nothing', async () => {
    const store = new JsonlThreadStore({ dir, indexDelayMs: 60_000 });
    await store.open(top('t0'));
    await store.flush();
    const indexWithT0 = await readFile(join(dir, 'index.json'), 'utf8');
    await store.open(top('t1'));
    expect(await readFile(join(dir, 'index.json'), 'utf8')).toBe(indexWithT0);
    store.append(started('t1', 'r1', 10));
    await store.flush();
    store.dispose();
    // As if the process had died after writing t1's events but before its debounced index write.
    await writeFile(join(dir, 'index.json'), indexWithT0);
    const after = new JsonlThreadStore({ dir });
    expect((await after.list()).map((t) => t.id).sort()).toEqual(['t0', 't1']);
    after.dispose();
  });

  it('writes two threads appended concurrently without mixing lines', async () => {
    const store = new JsonlThreadStore({ dir });
    await Promise.all([store.open(top('a')), store.open(top('b'))]);
    const writes: Promise<void>[] = [];
    for (let i = 0; i < 2000; i++) {
      store.append(delta('a', 'ra', i, `a${i} `.repeat(20)));
      store.append(delta('b', 'rb', i, `b${i} `.repeat(20)));
      if (i % 250 === 0) writes.push(store.flush());
    }
    await Promise.all([...writes, store.flush()]);
    const reread = new JsonlThreadStore({ dir });
    for (const id of ['a', 'b']) {
      const loaded = await reread.get(id);
      expect(loaded?.warnings).toEqual([]);
      expect(loaded?.events.map((e) => e.seq)).toEqual(Array.from({ length: 2000 }, (_, i) => i + 1));
      expect(loaded?.events.every((e) => e.kind === 'text.delta' && e.text.startsWith(id))).toBe(true);
    }
  });

  it('appends, flushes and loads 100k events intact', async () => {
    const store = new JsonlThreadStore({ dir });
    await store.open(top('big'));
    store.append(started('big', 'r1', 0));
    for (let i = 1; i < 100_000; i++) store.append(delta('big', 'r1', i, 'w '));
    await store.flush();
    const loaded = await new JsonlThreadStore({ dir }).get('big');
    expect(loaded?.events).toHaveLength(100_000);
    expect(loaded?.events.at(-1)?.seq).toBe(100_000);
    const tree = foldRunEvents(EMPTY_TREE, loaded!.events);
    expect(tree.runs.r1?.text).toHaveLength(2 * 99_999);
  });

  it('merges a thread family by time, parents first on ties', async () => {
    const store = new JsonlThreadStore({ dir });
    await store.open(top('p'));
    await store.open({ id: 'c', title: 'child', parentThreadId: 'p', agent: 'a' });
    await store.open({ id: 'g', title: 'grandchild', parentThreadId: 'c', agent: 'b' });
    await store.open(top('other'));
    store.append(started('p', 'rp', 10));
    store.append(started('c', 'rc', 20, { parentRunId: 'rp', parentThreadId: 'p', agent: 'a' }));
    store.append(delta('p', 'rp', 20, 'parent at 20'));
    store.append(started('g', 'rg', 25, { parentRunId: 'rc', parentThreadId: 'c', agent: 'b' }));
    store.append(delta('c', 'rc', 30, 'child at 30'));
    store.append(delta('p', 'rp', 40, 'parent at 40'));
    store.append(started('other', 'ro', 15));
    await store.flush();
    const family = await new JsonlThreadStore({ dir }).getFamily('p');
    expect(family?.meta.id).toBe('p');
    expect(family?.events.map((e) => `${e.threadId}@${e.ts}`)).toEqual(['p@10', 'p@20', 'c@20', 'g@25', 'c@30', 'p@40']);
  });

  it('deletes a thread with its descendants', async () => {
    const store = new JsonlThreadStore({ dir });
    await store.open(top('p'));
    await store.open({ id: 'c', title: 'child', parentThreadId: 'p', agent: 'a' });
    await store.open(top('keep'));
    store.append(started('c', 'rc', 1));
    expect(await store.delete('p')).toBe(true);
    expect(await store.delete('p')).toBe(false);
    expect((await store.list()).map((t) => t.id)).toEqual(['keep']);
    // keep is still open, so its lease (a link to this process's owner note) is there; the deleted threads leave nothing.
    expect((await readdir(dir)).sort()).toEqual(['.owners', 'index.json', 'keep.jsonl', 'keep.jsonl.lock']);
    expect(await readdir(join(dir, '.owners'))).toEqual([`${encodeURIComponent(hostname())}@${process.pid}`]);
    expect(() => store.append(delta('c', 'rc', 2, 'x'))).toThrow(/open\(\) it first/);
    expect(await new JsonlThreadStore({ dir }).get('c')).toBeUndefined();
  });

  it('reports a failed write on flush and keeps the lines for the next attempt', async () => {
    const sub = join(dir, 'store');
    const store = new JsonlThreadStore({ dir: sub });
    await store.open(top('t1'));
    await rm(sub, { recursive: true });
    store.append(started('t1', 'r1', 1));
    await expect(store.flush()).rejects.toThrow(/Could not write thread t1 to .*t1\.jsonl: .*Check that the folder exists/);
    await mkdir(sub);
    store.append(delta('t1', 'r1', 2, 'x'));
    await store.flush();
    const lines = (await readFile(join(sub, 't1.jsonl'), 'utf8')).trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as RunEvent).seq)).toEqual([1, 2]);
  });

  it('a write cut short (a full disk) goes on where it stopped: no line is split by another or written twice', async () => {
    const store = new JsonlThreadStore({ dir });
    await store.open(top('t1'));
    const fs = createRequire(import.meta.url)('node:fs') as typeof Fs;
    const writeSync = fs.writeSync;
    let writes = 0;
    // The next batch: 10 bytes go to disk, then the disk is full.
    fs.writeSync = ((fd: number, buffer: Buffer, offset?: number) => {
      if (++writes === 1) return writeSync(fd, buffer, offset ?? 0, 10);
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    }) as typeof fs.writeSync;
    syncBuiltinESMExports();
    try {
      store.append(started('t1', 'r1', 1));
      store.append(delta('t1', 'r1', 2, 'one'));
      await expect(store.flush()).rejects.toThrow(/Could not write thread t1 to .*t1\.jsonl: ENOSPC/);
    } finally {
      fs.writeSync = writeSync;
      syncBuiltinESMExports();
    }
    expect(writes).toBe(2);
    expect((await readFile(join(dir, 't1.jsonl'), 'utf8')).length).toBe(10);
    store.append(delta('t1', 'r1', 3, 'two'));
    await store.flush();
    const lines = (await readFile(join(dir, 't1.jsonl'), 'utf8')).trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as RunEvent).seq)).toEqual([1, 2, 3]);
    await store.closeAll();
  });

  it('refuses thread ids that are not safe file names', async () => {
    const store = new JsonlThreadStore({ dir });
    for (const id of ['../escape', 'a/b', '', 'x'.repeat(101), 'dot.dot', 'nul\0']) {
      await expect(store.open(top(id))).rejects.toThrow(/Invalid thread id/);
      await expect(store.get(id)).rejects.toThrow(/Invalid thread id/);
      await expect(store.delete(id)).rejects.toThrow(/Invalid thread id/);
    }
    expect(await readdir(dir)).toEqual([]);
    expect(await store.get('fine_ID-1')).toBeUndefined();
  });
});
