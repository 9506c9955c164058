import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { Engine, EngineRequestError } from '../../../../src/core/engine/engine';
import { DEFAULT_SETTINGS } from '../../../../src/core/config/settings/engineSettings';
import { createModelResolver } from '../../../../src/core/models/createModelResolver';
import type { Script } from '../../../../src/core/models/scriptSchema';
import { nodeWorkspace } from '../../../../src/core/engine/nodeWorkspace';
import { JsonlThreadStore } from '../../../../src/core/storage/threads/jsonlThreadStore';

// Two windows on one folder: two engines, each with its own store over the same directory.

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'two-windows-'));
  return () => rm(dir, { recursive: true, force: true });
});

const SCRIPT = '/s.json';
function window(script: Script) {
  const store = new JsonlThreadStore({ dir, recoverInterrupted: true });
  const engine = new Engine({
    store,
    workspace: nodeWorkspace({ root: dir }),
    profiles: () => ({ profiles: new Map(), problems: [] }),
    settings: () => ({ ...DEFAULT_SETTINGS, model: `scripted:${SCRIPT}`, maxDepth: 0 }),
    createModelResolver: () => createModelResolver({ workspaceRoot: '/', apiKey: () => undefined, scripts: new Map([[SCRIPT, script]]) }),
  });
  return { store, engine };
}

describe('two windows on one folder', () => {
  it('refuses a message on a thread that works in the other window, and takes it once that is done', async () => {
    const a = window({ agents: { supervisor: [{ delayMs: 300, text: 'from A' }] } });
    const b = window({ agents: { supervisor: [{ text: 'from B' }] } });
    const first = await a.engine.send({ prompt: 'hello' });
    await expect(b.engine.send({ threadId: first.threadId, prompt: 'me too' })).rejects.toThrow(EngineRequestError);
    await expect(b.engine.send({ threadId: first.threadId, prompt: 'me too' })).rejects.toThrow(/working in another window/);
    // A run in the other window is not closed as interrupted by this one's loading it.
    const seen = await b.store.get(first.threadId);
    expect(seen?.events.some((e) => e.kind === 'run.finished')).toBe(false);
    await first.done;
    await a.engine.whenQuiet(first.threadId);
    const second = await b.engine.send({ threadId: first.threadId, prompt: 'me too' });
    expect((await second.done).status).toBe('ok');
    await b.engine.whenQuiet(second.threadId);
    const all = (await b.store.get(first.threadId))!.events;
    all.forEach((e, i) => expect(e.seq).toBe(i + 1));
    expect(all.filter((e) => e.kind === 'run.finished').map((e) => e.kind === 'run.finished' && e.output)).toEqual(['from A', 'from B']);
  });
});
