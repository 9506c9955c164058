import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nodeWorkspace } from '../../../../src/core/engine/nodeWorkspace';
import type { Workspace } from '../../../../src/core/ports';
import { agent, makeEngine } from '../engineHarness';
import { programmedModel, type ProgramContext, type ProgramStep } from '../programmedModel';
import { WorkProbe } from '../workProbe';

// subagents.maxConcurrency: one limit per Engine on the subagents (depth >= 1) inside a model call
// or a tool call at once, whatever started them (delegate_task, in the foreground or the background), in any thread.

const delegate = (agents: string[], task = 't') => ({ tool: 'delegate_task', input: { task, agents } });
const agents = (...names: string[]) => Object.fromEntries(names.map((n) => [n, agent(`does ${n}`)]));

let root: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'subagents-limit-')));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A workspace whose reads take a little while and are counted as the reading agent's work. */
function probedWorkspace(probe: WorkProbe): Workspace {
  const inner = nodeWorkspace({ root });
  return {
    ...inner,
    readFile: (path) =>
      probe.around(basename(path, '.txt'), async () => {
        await delay(5);
        return inner.readFile(path);
      }),
  };
}

describe('maxConcurrency', () => {
  it('holds across the threads of one engine', async () => {
    const probe = new WorkProbe();
    const program = (name: string) => (): ProgramStep => ({ delayMs: 10, text: `${name} done` });
    const h = makeEngine(
      { agents: {} },
      {
        agents: agents('a', 'b', 'c', 'd'),
        settings: { maxConcurrency: 1 },
        model: (c) =>
          c.agent === 'supervisor'
            ? programmedModel(({ call }) =>
                call === 0 ? { toolCalls: [delegate(c.task === 'one' ? ['a', 'b'] : ['c', 'd'])] } : { text: 'ok' },
              )
            : probe.model(c.agent, programmedModel(program(c.agent))),
      },
    );
    const [one, two] = await Promise.all([h.engine.send({ prompt: 'one' }), h.engine.send({ prompt: 'two' })]);
    const finished = await Promise.all([one.done, two.done]);
    expect(finished.map((f) => f.status)).toEqual(['ok', 'ok']);
    expect(
      h
        .runs()
        .filter((r) => r.depth === 1)
        .map((r) => r.state),
    ).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(probe.max).toBe(1);
  });

  it('counts tool calls as work, and background children like delegated ones', async () => {
    const probe = new WorkProbe();
    for (const n of ['a', 'b', 'c']) await writeFile(join(root, `${n}.txt`), `${n}\n`);
    const child =
      (name: string) =>
      (ctx: ProgramContext): ProgramStep =>
        ctx.call === 0 ? { toolCalls: [{ tool: 'read_file', input: { path: `${name}.txt` } }] } : { delayMs: 5, text: `${name} read it` };
    const h = makeEngine(
      { agents: {} },
      {
        agents: agents('a', 'b', 'c'),
        workspace: probedWorkspace(probe),
        settings: { maxConcurrency: 2 },
        model: (c) =>
          c.agent === 'supervisor'
            ? programmedModel(({ call }) =>
                call === 0
                  ? {
                      toolCalls: ['a', 'b', 'c'].map((n) => ({
                        tool: 'delegate_task',
                        input: { task: 'read', agents: [n], background: true },
                      })),
                    }
                  : { text: 'noted' },
              )
            : probe.model(c.agent, programmedModel(child(c.agent))),
      },
    );
    const { threadId, done } = await h.engine.send({ prompt: 'go' });
    await done;
    await h.engine.whenQuiet(threadId);
    const children = h.runs().filter((r) => r.depth === 1);
    expect(children.map((r) => [r.agent, r.state])).toEqual([
      ['a', 'ok'],
      ['b', 'ok'],
      ['c', 'ok'],
    ]);
    // Three children, two slots: never three at once, and the two slots were used.
    expect(probe.max).toBe(2);
  });

  it('never deadlocks nested delegation: a child waiting for its own child holds no slot', async () => {
    const programs: Record<string, (ctx: ProgramContext) => ProgramStep> = {
      supervisor: ({ call }) => (call === 0 ? { toolCalls: [delegate(['a'])] } : { text: 'top done' }),
      a: ({ call }) => (call === 0 ? { toolCalls: [delegate(['b'])] } : { text: 'a done' }),
      b: () => ({ text: 'b done' }),
    };
    const h = makeEngine(
      { agents: {} },
      { agents: agents('a', 'b'), settings: { maxDepth: 2, maxConcurrency: 1 }, model: (c) => programmedModel(programs[c.agent]!) },
    );
    const finished = await (await h.engine.send({ prompt: 'go' })).done;
    expect(finished.status).toBe('ok');
    expect(h.runs().map((r) => [r.agent, r.depth, r.state])).toEqual([
      ['supervisor', 0, 'ok'],
      ['a', 1, 'ok'],
      ['b', 2, 'ok'],
    ]);
  });
});
