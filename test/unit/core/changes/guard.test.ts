import { utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeWorkspace } from '../../../../src/core/engine/nodeWorkspace';
import type { Workspace } from '../../../../src/core/ports';
import type { RunEventOf } from '../../../../src/shared/events';
import { agent, makeEngine } from '../engineHarness';
import { programmedModel, type ProgramStep } from '../programmedModel';
import { gitWorld } from './gitWorld';

const TRUST = { approval: 'trust' as const, 'sandbox.mode': 'off' as const };

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** A model that plays `steps` in order, one per call; a step may wait first. */
function steps(list: (() => ProgramStep | Promise<ProgramStep>)[]): LanguageModelV4 {
  return programmedModel(({ call }) => (list[call] ?? (() => ({ text: 'done' })))());
}

const call = (tool: string, input: unknown): ProgramStep => ({ toolCalls: [{ tool, input }] });

function results(events: readonly { kind: string }[], runId: string) {
  return events
    .filter((e): e is RunEventOf<'tool.finished'> => e.kind === 'tool.finished' && 'runId' in e && e.runId === runId)
    .map((e) => [e.tool, e.output] as const);
}

describe('the conflict guard', () => {
  it('two children edit one file in turn: the second is refused until it reads again, then both edits are kept', async () => {
    const world = await gitWorld({ 'shared.txt': 'top\nmiddle\nbottom\n' });
    cleanup = world.cleanup;
    const bothRead = { a: deferred(), b: deferred() };
    const aEdited = deferred();
    const h = makeEngine(
      {
        agents: {
          supervisor: [
            { toolCalls: [{ tool: 'delegate_task', input: { task: 'edit shared.txt', agents: ['alpha', 'beta'] } }] },
            { text: 'done' },
          ],
        },
      },
      {
        workspace: nodeWorkspace({ root: world.root }),
        settings: TRUST,
        agents: { alpha: agent('edits the top'), beta: agent('edits the bottom') },
        model: ({ agent: name }) => {
          if (name === 'alpha') {
            return steps([
              () => call('read_file', { path: 'shared.txt' }),
              async () => {
                bothRead.a.resolve();
                await bothRead.b.promise;
                return call('edit_file', { path: 'shared.txt', oldText: 'top', newText: 'TOP (alpha)' });
              },
              () => {
                aEdited.resolve();
                return { text: 'alpha done' };
              },
            ]);
          }
          if (name === 'beta') {
            return steps([
              () => call('read_file', { path: 'shared.txt' }),
              async () => {
                bothRead.b.resolve();
                await Promise.all([bothRead.a.promise, aEdited.promise]);
                return call('edit_file', { path: 'shared.txt', oldText: 'bottom', newText: 'BOTTOM (beta)' });
              },
              () => call('read_file', { path: 'shared.txt' }),
              () => call('edit_file', { path: 'shared.txt', oldText: 'bottom', newText: 'BOTTOM (beta)' }),
            ]);
          }
          return undefined;
        },
      },
    );
    const { threadId, done } = await h.engine.send({ prompt: 'go' });
    await done;
    await h.engine.whenQuiet(threadId);
    const runs = Object.fromEntries(h.runs().map((r) => [r.agent, r.runId]));
    const beta = results(h.events, runs['beta']!);
    expect(beta.map(([tool]) => tool)).toEqual(['read_file', 'edit_file', 'read_file', 'edit_file']);
    const refused = beta[1]![1] as { error: string };
    expect(refused.error).toMatch(
      /shared\.txt was changed by another agent's run \("alpha", run r_\w+, with edit_file\) since you read it\. Nothing was written\. Read it again/,
    );
    expect(beta[3]![1]).toMatchObject({ path: 'shared.txt' });
    expect(await world.read('shared.txt')).toBe('TOP (alpha)\nmiddle\nBOTTOM (beta)\n');
  });

  it('a change the user made in the editor (an unsaved buffer, through the Workspace port) stops a write_file until the agent reads it', async () => {
    const world = await gitWorld({ 'notes.md': 'mine\n' });
    cleanup = world.cleanup;
    const node = nodeWorkspace({ root: world.root });
    // The editor: the user types into notes.md without saving; the port's readFile returns that text.
    let buffer: string | undefined;
    const editor: Workspace = {
      ...node,
      readFile: async (path) => (path === join(world.root, 'notes.md') && buffer !== undefined ? buffer : node.readFile(path)),
    };
    const h = makeEngine(
      { agents: {} },
      {
        workspace: editor,
        settings: TRUST,
        model: () =>
          steps([
            () => call('read_file', { path: 'notes.md' }),
            () => {
              buffer = 'mine\nand the user typed this\n';
              return call('write_file', { path: 'notes.md', content: 'the agent replaces it\n' });
            },
            () => call('read_file', { path: 'notes.md' }),
            () => call('write_file', { path: 'notes.md', content: 'mine\nand the user typed this\nand the agent adds this\n' }),
          ]),
      },
    );
    const { threadId, done } = await h.engine.send({ prompt: 'go' });
    const finished = await done;
    await h.engine.whenQuiet(threadId);
    const outputs = results(h.events, finished.runId);
    expect(outputs[1]![1]).toEqual({
      error:
        'notes.md was changed by the user in the editor (unsaved changes) since you read it. Nothing was written. Read it again (read_file) and make your change to what is there now.',
    });
    expect(outputs[3]![1]).toMatchObject({ path: 'notes.md', created: false });
    expect(await world.read('notes.md')).toBe('mine\nand the user typed this\nand the agent adds this\n');
  });

  it('a file the agent never read: refused when it changed on disk since the run started, written when it did not', async () => {
    const world = await gitWorld({ 'changed.txt': 'old\n', 'untouched.txt': 'old\n' });
    cleanup = world.cleanup;
    // Saved well before the run (a file saved in the very instant it starts counts as changed since).
    const minuteAgo = new Date(Date.now() - 60_000);
    await utimes(join(world.root, 'untouched.txt'), minuteAgo, minuteAgo);
    const h = makeEngine(
      { agents: {} },
      {
        workspace: nodeWorkspace({ root: world.root }),
        settings: TRUST,
        model: () =>
          steps([
            async () => {
              // Someone else (the user, another program) saves the file while the run works.
              await writeFile(join(world.root, 'changed.txt'), 'theirs\n');
              return {
                toolCalls: [
                  { tool: 'write_file', input: { path: 'changed.txt', content: 'agent\n' } },
                  { tool: 'write_file', input: { path: 'untouched.txt', content: 'agent\n' } },
                ],
              };
            },
          ]),
      },
    );
    const { threadId, done } = await h.engine.send({ prompt: 'go' });
    const finished = await done;
    await h.engine.whenQuiet(threadId);
    const outputs = results(h.events, finished.runId).map(([, output]) => output);
    expect(outputs).toContainEqual({
      error:
        'changed.txt was changed since your run started (by the user, or another program), and you have not read it. Nothing was written. Read it again (read_file) and make your change to what is there now.',
    });
    expect(outputs).toContainEqual({ path: 'untouched.txt', created: false, chars: 6 });
    expect(await world.read('changed.txt')).toBe('theirs\n');
    expect(await world.read('untouched.txt')).toBe('agent\n');
  });

  it('edit_file still applies over a change by the user when its oldText is there: the exact piece is replaced, nothing of theirs is lost', async () => {
    const world = await gitWorld({ 'a.txt': 'one\ntwo\n' });
    cleanup = world.cleanup;
    const h = makeEngine(
      { agents: {} },
      {
        workspace: nodeWorkspace({ root: world.root }),
        settings: TRUST,
        model: () =>
          steps([
            () => call('read_file', { path: 'a.txt' }),
            async () => {
              await writeFile(join(world.root, 'a.txt'), 'one\ntwo\nthree (user)\n');
              return call('edit_file', { path: 'a.txt', oldText: 'one', newText: 'ONE' });
            },
          ]),
      },
    );
    const { threadId, done } = await h.engine.send({ prompt: 'go' });
    await done;
    await h.engine.whenQuiet(threadId);
    expect(await world.read('a.txt')).toBe('ONE\ntwo\nthree (user)\n');
  });
});
