import type * as FsPromises from 'node:fs/promises';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { takeFileLock, type FileLockOptions } from '../../../../src/core/platform/files/fileLock';
import { JsonlThreadStore } from '../../../../src/core/storage/threads/jsonlThreadStore';
import type { UnsequencedRunEvent } from '../../../../src/shared/events';
import { call, jsonlWindow, text } from './jsonlWindow';

// Real files; `stat` is the real one, counted: a subagent's start looks on disk for its thread
// (a replayed delegation's may be there, made by another window) only when another process may
// have written the conversation since this one knew it whole.
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof FsPromises>();
  return { ...real, stat: vi.fn(real.stat) };
});

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sole-'));
  vi.mocked(stat).mockClear();
  return () => rm(dir, { recursive: true, force: true });
});

/** The thread files (`*.jsonl`) looked at with stat since the test began. */
const statsOfThreadFiles = () =>
  vi
    .mocked(stat)
    .mock.calls.map(([path]) => basename(String(path)))
    .filter((name) => name.endsWith('.jsonl'));
const top = (id: string) => ({ id, title: 'go', parentThreadId: null, agent: 'supervisor' });
const child = (id: string, parent: string) => ({ id, title: 'part', parentThreadId: parent, agent: 'a' });
const started = (threadId: string): UnsequencedRunEvent =>
  ({
    v: 1,
    kind: 'run.started',
    threadId,
    runId: 'r1',
    ts: 1,
    parentRunId: null,
    agent: 'a',
    agentPath: ['a'],
    depth: 1,
    task: 'part',
    model: 'm',
  }) as UnsequencedRunEvent;

describe('a conversation only this process has written', () => {
  it("starts a delegation's subagents without looking for their thread files on disk", async () => {
    const w = jsonlWindow(dir, (caller, n) =>
      caller.agent === 'supervisor'
        ? n === 0
          ? call('d1', 'delegate_task', { task: 'count', agents: ['a'] })
          : text('done')
        : text('counted'),
    );
    const { threadId, done } = await w.engine.send({ prompt: 'go' });
    expect(await done).toMatchObject({ status: 'ok', output: 'done' });
    await w.engine.whenQuiet(threadId);
    const family = await w.store.getFamily(threadId);
    expect(family?.threads.map((t) => t.agent)).toEqual(['supervisor', 'a']);
    expect(statsOfThreadFiles()).toEqual([]);
    await w.store.closeAll();
    w.store.dispose();
  });

  it('looks again once its lease was given back: a child another window wrote meanwhile is found', async () => {
    const a = new JsonlThreadStore({ dir, indexDelayMs: 60_000 });
    await a.open(top('t_root'), { newId: true });
    // Known whole while held since it was made: a child id it never made is not on disk.
    expect(await a.get('c_never', { parentThreadId: 't_root' })).toBeUndefined();
    expect(statsOfThreadFiles()).toEqual([]);
    await a.close('t_root');
    await a.flushThreads();

    // Another window continues the conversation and delegates; its index entry is not written yet.
    const b = new JsonlThreadStore({ dir, indexDelayMs: 60_000 });
    await b.open(top('t_root'));
    await b.open(child('c_other', 't_root'), { newId: true });
    b.append(started('c_other'));
    await b.close('c_other');
    await b.close('t_root');
    await b.flushThreads();

    await a.open(top('t_root'));
    expect((await a.get('c_other', { parentThreadId: 't_root' }))?.events.map((e) => e.kind)).toEqual(['run.started']);
    expect(statsOfThreadFiles()).toContain('c_other.jsonl');
    await a.close('t_root');
    for (const s of [a, b]) {
      await s.closeAll();
      s.dispose();
    }
  });

  it('looks again once its lease was lost (refreshing it failed): another process may have broken it', async () => {
    let compromise: ((error: Error) => void) | undefined;
    const takeLock = (path: string, options: FileLockOptions) => {
      compromise = options.onCompromised;
      return takeFileLock(path, options);
    };
    const a = new JsonlThreadStore({ dir, takeLock });
    await a.open(top('t_root'), { newId: true });
    await a.flushThreads();
    expect(await a.get('c_1', { parentThreadId: 't_root' })).toBeUndefined();
    expect(statsOfThreadFiles()).toEqual([]);
    compromise?.(new Error('the lock was removed'));
    expect(await a.get('c_1', { parentThreadId: 't_root' })).toBeUndefined();
    expect(statsOfThreadFiles()).toEqual(['c_1.jsonl']);
    await a.closeAll();
    a.dispose();
  });
});
