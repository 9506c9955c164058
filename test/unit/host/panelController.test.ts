import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from '../../../src/core/engine/engine';
import { DEFAULT_SETTINGS } from '../../../src/core/config/settings/engineSettings';
import { createModelResolver } from '../../../src/core/models/createModelResolver';
import { nodeWorkspace } from '../../../src/core/engine/nodeWorkspace';
import { silentLogger, type Logger } from '../../../src/core/ports';
import type { Profile } from '../../../src/core/config/profiles/profile';
import { PromptQueue, type QueueEngine } from '../../../src/core/engine/requests/promptQueue';
import { WorkingThreads, shutdownRequests } from '../../../src/core/engine/requests/workingThreads';
import { JsonlThreadStore } from '../../../src/core/storage/threads/jsonlThreadStore';
import type { ThreadStore } from '../../../src/core/storage/threads/threadStore';
import { PanelController } from '../../../src/host/panel/panelController';
import type { HostToWebview, PanelConfig, ProblemLocation } from '../../../src/shared/protocol';
import { EMPTY_TREE, foldRunEvents, type RunTree } from '../../../src/shared/runTree';
import { walkRuns } from '../../../src/shared/runTotals';
import { agent, makeEngine, SCRIPT_PATH } from '../core/engineHarness';
import { gatedModel } from '../fakes/gatedModel';

const script = {
  agents: {
    supervisor: [{ toolCalls: [{ tool: 'delegate_task', input: { task: 't', agents: ['a', 'b'] } }] }, { text: 'final answer' }],
    a: [{ text: 'from a' }],
    b: [{ text: 'from b' }],
  },
};
const config: PanelConfig = { model: 'scripted:x', agents: [], problems: [], trusted: true };

/** A panel over an engine: what it posts, and a way to wait for a posted message. */
function panel(deps: {
  engine: Engine;
  store: ThreadStore;
  queue?: PromptQueue;
  remembered?: string;
  logger?: Logger;
  openLocation?: (l: ProblemLocation) => Promise<void>;
}) {
  let stored = deps.remembered;
  const posted: HostToWebview[] = [];
  const queue = deps.queue ?? new PromptQueue(deps.engine);
  const controller = new PanelController({
    engine: deps.engine,
    store: deps.store,
    queue,
    memory: { get: () => stored, set: async (id) => void (stored = id) },
    config: () => config,
    logger: deps.logger ?? silentLogger,
    batchIntervalMs: 5,
    ...(deps.openLocation ? { openLocation: deps.openLocation } : {}),
  });
  const waiters: (() => void)[] = [];
  controller.attach((m) => {
    posted.push(m);
    for (const w of waiters.splice(0)) w();
  });
  // Resolves on the first posted message that fits, checked as each message arrives.
  const waitFor = (pred: (m: HostToWebview) => boolean): Promise<HostToWebview> => {
    const hit = posted.find(pred);
    return hit ? Promise.resolve(hit) : new Promise((resolve) => waiters.push(() => resolve(waitFor(pred))));
  };
  /** What the webview shows: the last state, folded with every event batch posted after it. */
  const shown = (): RunTree => {
    const at = posted.map((m) => m.type).lastIndexOf('state');
    const state = posted[at];
    let tree = foldRunEvents(EMPTY_TREE, state?.type === 'state' ? state.events : []);
    for (const m of posted.slice(at + 1)) if (m.type === 'events') tree = foldRunEvents(tree, m.events);
    return tree;
  };
  return { controller, posted, waitFor, shown, queue, stored: () => stored };
}

function setup(remembered?: string, logger: Logger = silentLogger) {
  const h = makeEngine(script, { agents: { a: agent('A'), b: agent('B') } });
  return { h, ...panel({ engine: h.engine, store: h.store, remembered, logger }) };
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** One window's engine over a thread folder on disk, as the extension builds it. */
function windowOver(dir: string, model?: ReturnType<typeof gatedModel>['model']) {
  const store = new JsonlThreadStore({ dir, recoverInterrupted: true });
  const profiles = new Map<string, Profile>(
    ['a', 'b'].map((n) => [n, { name: n, description: n.toUpperCase(), instructions: '', source: 'test' }]),
  );
  const engine = new Engine({
    store,
    workspace: nodeWorkspace({ root: '/workspace' }),
    profiles: () => ({ profiles, problems: [] }),
    settings: () => ({ ...DEFAULT_SETTINGS, model: `scripted:${SCRIPT_PATH}` }),
    createModelResolver: async () => {
      const scripted = await createModelResolver({
        workspaceRoot: '/',
        apiKey: () => undefined,
        scripts: new Map([[SCRIPT_PATH, script]]),
      });
      return model ? { resolve: () => model } : scripted;
    },
  });
  const queue = new PromptQueue(engine);
  const working = new WorkingThreads(engine);
  return { store, engine, queue, working, close: () => shutdownRequests({ queue, working, store }, 5000) };
}

describe('PanelController', () => {
  it('runs a prompt and streams the whole family of the thread in batches, then reports not busy', async () => {
    const { h, controller, posted, waitFor, stored } = setup();
    await controller.receive({ type: 'ready' });
    expect(posted[0]).toMatchObject({ type: 'state', threadId: null, events: [], queued: [] });
    await controller.receive({ type: 'send', text: 'do it' });
    await waitFor((m) => m.type === 'busy' && !m.busy);
    const threadId = stored()!;
    expect(threadId).toBeTruthy();
    const batched = posted.flatMap((m) => (m.type === 'events' ? m.events : []));
    const tree = foldRunEvents(EMPTY_TREE, batched);
    const runs = walkRuns(tree);
    expect(runs.map((r) => [r.agent, r.state])).toEqual([
      ['supervisor', 'ok'],
      ['a', 'ok'],
      ['b', 'ok'],
    ]);
    expect(runs[0]!.text).toBe('final answer');
    // Batches, not one message per event.
    expect(posted.filter((m) => m.type === 'events').length).toBeLessThan(h.events.length);
    expect(posted.some((m) => m.type === 'threads' && m.threads.some((t) => t.id === threadId))).toBe(true);
  });

  it('shows the remembered thread again after a real reload: a new engine and store over the same folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'subagents-reload-'));
    dirs.push(dir);
    const first = windowOver(dir);
    const before = panel(first);
    await before.controller.receive({ type: 'send', text: 'do it' });
    await before.waitFor((m) => m.type === 'busy' && !m.busy);
    const threadId = before.stored()!;
    await first.close();

    const second = windowOver(dir);
    const after = panel({ ...second, remembered: threadId });
    await after.controller.receive({ type: 'ready' });
    const state = await after.waitFor((m) => m.type === 'state');
    expect(state).toMatchObject({ type: 'state', threadId, busy: false });
    // Siblings that started in the same millisecond may come back from disk in either order.
    const [root, ...children] = walkRuns(after.shown()).map((r) => [r.agent, r.state]);
    expect(root).toEqual(['supervisor', 'ok']);
    expect(children.sort()).toEqual([
      ['a', 'ok'],
      ['b', 'ok'],
    ]);
    await second.close();
  });

  it('a reload while a run works stores it as cancelled, not interrupted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'subagents-reload-'));
    dirs.push(dir);
    const gated = gatedModel();
    const first = windowOver(dir, gated.model);
    const before = panel(first);
    await before.controller.receive({ type: 'send', text: 'a long job' });
    await gated.reached(1);
    const threadId = before.stored()!;
    // What deactivate() does on a reload or a clean shutdown; the host exits once it resolves, so
    // the disk as it is then is all the next window finds.
    await first.close();
    const atExit = `${dir}-at-exit`;
    cpSync(dir, atExit, { recursive: true });
    dirs.push(atExit);

    const second = windowOver(atExit);
    const after = panel({ ...second, remembered: threadId });
    await after.controller.receive({ type: 'ready' });
    await after.waitFor((m) => m.type === 'state');
    expect(walkRuns(after.shown()).map((r) => [r.task, r.state])).toEqual([['a long job', 'cancelled']]);
    await second.close();
  });

  for (const how of ['ready', 'openThread'] as const) {
    it(`loses no event that arrives while the thread loads (${how === 'ready' ? 'the panel opens' : 'switching to a running thread'})`, async () => {
      const gated = gatedModel();
      const h = makeEngine({ agents: {} }, { model: () => gated.model });
      // A store whose family load takes its snapshot at once and returns it only when told.
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let loading!: () => void;
      const loadStarted = new Promise<void>((r) => (loading = r));
      const slow: ThreadStore = Object.assign(Object.create(h.store) as ThreadStore, {
        getFamily: async (id: string) => {
          const snapshot = await h.store.getFamily(id);
          loading();
          await held;
          return snapshot;
        },
      });
      const queue = new PromptQueue(h.engine);
      queue.submit({ threadId: 't_running', prompt: 'work' });
      await gated.reached(1);
      const p = panel({ engine: h.engine, store: slow, queue, remembered: how === 'ready' ? 't_running' : undefined });
      if (how === 'openThread') {
        await p.controller.receive({ type: 'ready' });
        void p.controller.receive({ type: 'openThread', threadId: 't_running' });
      } else {
        void p.controller.receive({ type: 'ready' });
      }
      await loadStarted;
      // The run answers and ends while the snapshot (which shows it running) is on its way.
      gated.calls[0]!.answer('all done');
      await new Promise<void>((resolve) => queue.onChange((c) => c.kind === 'idle' && resolve()));
      release();
      const state = await p.waitFor((m) => m.type === 'state' && m.threadId === 't_running');
      // The snapshot still shows the run working; what came during the load follows it.
      expect(walkRuns(foldRunEvents(EMPTY_TREE, state.type === 'state' ? state.events : [])).map((r) => r.state)).toEqual(['running']);
      await p.waitFor((m) => m.type === 'events' && p.posted.indexOf(m) > p.posted.indexOf(state));
      const runs = walkRuns(p.shown());
      expect(runs.map((r) => [r.task, r.state, r.text])).toEqual([['work', 'ok', 'all done']]);
    });
  }

  it('queues a prompt sent while the thread works, shows it, and sends it once the thread is quiet', async () => {
    const gated = gatedModel();
    const h = makeEngine({ agents: {} }, { model: () => gated.model });
    const p = panel({ engine: h.engine, store: h.store });
    await p.controller.receive({ type: 'ready' });
    await p.controller.receive({ type: 'send', text: 'first' });
    await gated.reached(1);
    await p.controller.receive({ type: 'send', text: 'second' });
    await p.controller.receive({ type: 'send', text: 'never mind' });
    const threadId = p.stored()!;
    const queued = await p.waitFor((m) => m.type === 'queued' && m.queued.length === 2);
    expect(queued).toMatchObject({ type: 'queued', threadId, queued: [{ text: 'second' }, { text: 'never mind' }] });
    const gone = queued.type === 'queued' ? queued.queued[1]!.id : '';
    await p.controller.receive({ type: 'unqueue', id: gone });
    await p.waitFor((m) => m.type === 'queued' && m.queued.length === 1);
    // Busy all along: the Stop button stays while anything works or waits.
    expect(p.posted.filter((m) => m.type === 'busy').map((m) => m.type === 'busy' && m.busy)).toEqual([true]);
    gated.calls[0]!.answer('one');
    await gated.reached(2);
    expect(gated.calls[1]!.prompt).toBe('second');
    await p.waitFor((m) => m.type === 'queued' && m.queued.length === 0);
    gated.calls[1]!.answer('two');
    await p.waitFor((m) => m.type === 'busy' && !m.busy);
    expect(walkRuns(p.shown()).map((r) => [r.task, r.state])).toEqual([
      ['first', 'ok'],
      ['second', 'ok'],
    ]);
    // A webview that comes back sees the queue in its state.
    await p.controller.receive({ type: 'ready' });
    expect(p.posted.at(-1)).toMatchObject({ type: 'state', threadId, queued: [] });
  });

  it('says a refused message in words about that conversation, with no internal ids', async () => {
    const h = makeEngine(script);
    const refusing: QueueEngine = {
      send: () => Promise.reject(new Error('The thread store could not be opened: the disk is full.')),
      isBusy: () => false,
      whenQuiet: () => Promise.resolve(),
    };
    const p = panel({ engine: h.engine, store: h.store, queue: new PromptQueue(refusing) });
    await p.controller.receive({ type: 'ready' });
    await p.controller.receive({ type: 'send', text: 'save my work' });
    const notice = await p.waitFor((m) => m.type === 'notice');
    expect(notice).toEqual({
      type: 'notice',
      level: 'error',
      threadId: p.stored(),
      message: 'Your message "save my work" was not sent: The thread store could not be opened: the disk is full.',
    });
    await p.controller.receive({ type: 'openThread', threadId: 't_0123456789abcdef0123' });
    const missing = p.posted.at(-1);
    expect(missing).toMatchObject({ type: 'notice', level: 'error' });
    expect(missing?.type === 'notice' && missing.message).not.toMatch(/t_[0-9a-f]/);
  });

  it('drops forged or malformed messages with a log line and keeps working', async () => {
    const warnings: string[] = [];
    const { controller, posted } = setup(undefined, { ...silentLogger, warn: (m) => warnings.push(m) });
    for (const bad of [
      null,
      'ready',
      { type: 'exec', command: 'rm -rf /' },
      { type: 'send', text: '' },
      { type: 'openThread', threadId: 7 },
      { type: 'unqueue' },
    ]) {
      await controller.receive(bad);
    }
    expect(warnings).toHaveLength(6);
    expect(warnings[2]).toMatch(/Dropped an invalid message/);
    expect(posted).toHaveLength(0);
    await controller.receive({ type: 'ready' });
    expect(posted).toHaveLength(1);
  });

  it('hands a problem place to the host to open, and drops one that names no file and no subagents setting', async () => {
    const h = makeEngine(script);
    const opened: ProblemLocation[] = [];
    const warnings: string[] = [];
    const p = panel({
      engine: h.engine,
      store: h.store,
      logger: { ...silentLogger, warn: (m) => warnings.push(m) },
      openLocation: async (l) => void opened.push(l),
    });
    await p.controller.receive({
      type: 'openLocation',
      location: { path: '/ws/.vscode/settings.json', line: 6, setting: 'subagents.agents' },
    });
    await p.controller.receive({ type: 'openLocation', location: { setting: 'subagents.maxDepth' } });
    for (const bad of [{}, { setting: 'editor.fontSize' }, { path: '/x', line: 0 }, { path: '/x', command: 'rm' }])
      await p.controller.receive({ type: 'openLocation', location: bad });
    expect(opened).toEqual([
      { path: '/ws/.vscode/settings.json', line: 6, setting: 'subagents.agents' },
      { setting: 'subagents.maxDepth' },
    ]);
    expect(warnings).toHaveLength(4);
    // A place the host refuses comes back as a notice, in its words.
    const refusing = panel({
      engine: h.engine,
      store: h.store,
      openLocation: () => Promise.reject(new Error('/etc/passwd is outside the workspace, so the panel does not open it.')),
    });
    await refusing.controller.receive({ type: 'openLocation', location: { path: '/etc/passwd' } });
    expect(refusing.posted).toEqual([
      { type: 'notice', level: 'error', message: '/etc/passwd is outside the workspace, so the panel does not open it.' },
    ]);
  });

  it('answers an unknown thread with a notice, not a crash', async () => {
    const { controller, posted } = setup();
    await controller.receive({ type: 'openThread', threadId: 'does-not-exist' });
    expect(posted).toEqual([{ type: 'notice', level: 'error', message: expect.stringMatching(/no longer there/) }]);
  });

  it('forgets a remembered thread that is gone and starts empty', async () => {
    const { controller, posted, stored } = setup('t_gone');
    await controller.receive({ type: 'ready' });
    expect(posted[0]).toMatchObject({ type: 'state', threadId: null });
    expect(stored()).toBeUndefined();
  });
});
