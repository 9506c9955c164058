import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/core/ports';
import { PromptQueue } from '../../../src/core/engine/requests/promptQueue';
import { JsonlThreadStore } from '../../../src/core/storage/threads/jsonlThreadStore';
import { PanelController } from '../../../src/host/panel/panelController';
import type { HostToWebview, ThreadSummary } from '../../../src/shared/protocol';
import { agent, makeEngine } from '../core/engineHarness';
import { gatedModel } from '../fakes/gatedModel';

// The thread list as the panel shows it (title, dates, status, run count, from the store's index),
// rename, and delete with one confirmation; and the small promises of the panel: Stop says when
// nothing runs, and a focus request waits for the webview to be ready.

const delegating = {
  agents: {
    supervisor: [
      { toolCalls: [{ tool: 'delegate_task', input: { task: 't', agents: ['a'] } }] },
      { text: 'done' },
      { text: 'second answer' },
    ],
    a: [{ text: 'from a' }],
  },
};

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

function setup(options: { confirm?: boolean; store?: JsonlThreadStore; gated?: ReturnType<typeof gatedModel> } = {}) {
  const h = makeEngine(delegating, {
    agents: { a: agent('A') },
    ...(options.store ? { store: options.store as never } : {}),
    ...(options.gated ? { model: () => options.gated!.model } : {}),
  });
  let stored: string | undefined;
  const asked: string[] = [];
  const posted: HostToWebview[] = [];
  const queue = new PromptQueue(h.engine);
  const controller = new PanelController({
    engine: h.engine,
    store: h.store,
    queue,
    memory: { get: () => stored, set: async (id) => void (stored = id) },
    config: () => ({ model: 'scripted:x', agents: [], problems: [], trusted: true }),
    logger: silentLogger,
    confirm: async (message, action, detail) => (asked.push(`${message} [${action}] ${detail}`), options.confirm ?? true),
    batchIntervalMs: 5,
  });
  controller.attach((m) => posted.push(m));
  const lastThreads = (): ThreadSummary[] => {
    const last = posted.filter((m) => m.type === 'threads' || m.type === 'state').at(-1);
    return last?.type === 'threads' || last?.type === 'state' ? last.threads : [];
  };
  /** Resolves when the queue lets go of a thread: nothing of it works or waits any more. */
  const idle = () => new Promise<void>((resolve) => queue.onChange((c) => c.kind === 'idle' && resolve()));
  const ask = async (text: string) => {
    const done = idle();
    await controller.receive({ type: 'send', text });
    await done;
  };
  return { h, controller, posted, queue, asked, lastThreads, ask, idle, stored: () => stored };
}

describe('the thread list', () => {
  it('shows each top-level thread with its creation date, status and turn count, and updates them as turns end', async () => {
    const p = setup();
    await p.controller.receive({ type: 'ready' });
    await p.ask('Check the invoice totals');
    await expect
      .poll(() => p.lastThreads())
      .toEqual([
        {
          id: p.stored(),
          title: 'Check the invoice totals',
          createdAt: expect.any(Number),
          updatedAt: expect.any(Number),
          status: 'ok',
          runCount: 1,
        },
      ]);
    await p.ask('And the tax?');
    await expect.poll(() => p.lastThreads()[0]).toMatchObject({ status: 'ok', runCount: 2 });
    // The subagent's child thread is not a conversation of its own in the list.
    expect(p.lastThreads()).toHaveLength(1);
  });

  it('shows a working thread as running', async () => {
    const gated = gatedModel();
    const p = setup({ gated });
    await p.controller.receive({ type: 'ready' });
    await p.controller.receive({ type: 'send', text: 'a long job' });
    await gated.reached(1);
    await expect.poll(() => p.lastThreads()[0]).toMatchObject({ title: 'a long job', status: 'running', runCount: 1 });
    gated.calls[0]!.answer('done');
    await expect.poll(() => p.lastThreads()[0]).toMatchObject({ status: 'ok' });
  });

  it('renames a thread and says when it is gone', async () => {
    const p = setup();
    await p.ask('Check the invoice totals');
    await p.controller.receive({ type: 'renameThread', threadId: p.stored()!, title: '  Invoice\nrounding  ' });
    expect(p.lastThreads()[0]?.title).toBe('Invoice rounding');
    await p.controller.receive({ type: 'renameThread', threadId: 't_0123456789abcdef0123', title: 'x' });
    expect(p.posted.at(-1)).toMatchObject({
      type: 'notice',
      level: 'error',
      message: 'That conversation is no longer there; it may have been deleted.',
    });
  });
});

describe('deleting a thread', () => {
  it('asks once, then deletes the thread with its child threads and shows a new conversation', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'subagents-delete-'));
    dirs.push(dir);
    const store = new JsonlThreadStore({ dir, indexDelayMs: 1 });
    const p = setup({ store });
    await p.ask('Check the invoice totals');
    await store.flush();
    expect((await readdir(dir)).filter((f) => f.endsWith('.jsonl'))).toHaveLength(2);
    await p.controller.receive({ type: 'deleteThread', threadId: p.stored()! });
    expect(p.asked).toEqual([
      'Delete the conversation "Check the invoice totals"? [Delete] Its 1 turn and its subagents\' threads are deleted with it. This cannot be undone.',
    ]);
    expect((await readdir(dir)).filter((f) => f.endsWith('.jsonl'))).toEqual([]);
    expect(p.posted.at(-1)).toMatchObject({ type: 'state', threadId: null, events: [], threads: [] });
    expect(p.stored()).toBeUndefined();
    store.dispose();
  });

  it('keeps the thread when the user says no, and refuses one that is working', async () => {
    const gated = gatedModel();
    const p = setup({ confirm: false, gated });
    await p.controller.receive({ type: 'send', text: 'keep me' });
    await gated.reached(1);
    const id = p.stored()!;
    await p.controller.receive({ type: 'deleteThread', threadId: id });
    expect(p.posted.at(-1)).toMatchObject({
      type: 'notice',
      level: 'error',
      message: '"keep me" is still working: stop it first, then delete it.',
    });
    expect(p.asked).toEqual([]);
    const idle = p.idle();
    gated.calls[0]!.answer('kept');
    await idle;
    await p.controller.receive({ type: 'deleteThread', threadId: id });
    expect(p.asked).toHaveLength(1);
    expect(await p.h.store.get(id)).toBeDefined();
  });
});

describe('deleting all threads', () => {
  it('asks once, deletes every conversation with its child threads, keeps one that works, and updates the list', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'subagents-delete-all-'));
    dirs.push(dir);
    const store = new JsonlThreadStore({ dir, indexDelayMs: 1 });
    const p = setup({ store });
    await p.ask('Check the invoice totals');
    await p.controller.newThread();
    await p.ask('Check the tax');
    await store.flush();
    expect((await readdir(dir)).filter((f) => f.endsWith('.jsonl'))).toHaveLength(4);
    // Another window works in one of them: kept, and said.
    const other = new JsonlThreadStore({ dir });
    const working = (await store.list()).find((t) => t.title === 'Check the invoice totals')!;
    await other.open(working);
    expect(await p.controller.deleteAllThreads()).toEqual({ deleted: 1, kept: 1 });
    expect(p.asked).toEqual([
      "Delete all 2 conversations? [Delete All] Their turns and their subagents' threads are deleted with them; one that is working is kept. This cannot be undone.",
    ]);
    expect((await readdir(dir)).filter((f) => f.endsWith('.jsonl')).sort()).toEqual(
      [expect.stringMatching(/^c_/), `${working.id}.jsonl`].sort(),
    );
    expect(p.posted.at(-1)).toMatchObject({ type: 'state', threadId: null, threads: [expect.objectContaining({ id: working.id })] });
    await other.closeAll();
    other.dispose();
    expect(await p.controller.deleteAllThreads()).toEqual({ deleted: 1, kept: 0 });
    expect((await readdir(dir)).filter((f) => f.endsWith('.jsonl'))).toEqual([]);
    expect(p.posted.at(-1)).toMatchObject({ type: 'threads', threads: [] });
    expect(await p.controller.deleteAllThreads()).toBeUndefined();
    store.dispose();
  });
});

describe('a new thread', () => {
  it('shows an empty conversation, and the next message starts a thread of its own', async () => {
    const p = setup();
    await p.controller.receive({ type: 'ready' });
    await p.ask('Check the invoice totals');
    const first = p.stored()!;
    await p.controller.newThread();
    expect(p.posted.at(-1)).toMatchObject({ type: 'state', threadId: null, events: [] });
    expect(p.stored()).toBeUndefined();
    await p.ask('And the tax?');
    expect(p.stored()).not.toBe(first);
    expect((await p.h.store.list()).filter((t) => t.parentThreadId === null).map((t) => t.runCount)).toEqual([1, 1]);
  });
});

describe('small promises', () => {
  it('Stop answers whether anything was running', async () => {
    const gated = gatedModel();
    const p = setup({ gated });
    expect(p.controller.cancel()).toBe(false);
    await p.controller.receive({ type: 'send', text: 'work' });
    await gated.reached(1);
    const idle = p.idle();
    expect(p.controller.cancel()).toBe(true);
    await idle;
    expect(p.h.runs()[0]?.state).toBe('cancelled');
    expect(p.controller.cancel()).toBe(false);
  });

  it('puts the focus in the prompt once the webview is ready, or at once when it is', async () => {
    const p = setup();
    p.controller.focusPrompt();
    expect(p.posted.some((m) => m.type === 'focusPrompt')).toBe(false);
    await p.controller.receive({ type: 'ready' });
    expect(p.posted.map((m) => m.type)).toEqual(['state', 'focusPrompt']);
    p.controller.focusPrompt();
    expect(p.posted.filter((m) => m.type === 'focusPrompt')).toHaveLength(2);
  });
});
