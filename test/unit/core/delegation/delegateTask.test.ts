import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeWorkspace } from '../../../../src/core/engine/nodeWorkspace';
import type { ModelRunResult } from '../../../../src/core/run/delegation/modelResult';
import { makeWorld } from '../tools/toolWorld';
import { agent, makeEngine } from '../engineHarness';
import type { RunEventOf } from '../../../../src/shared/events';
import type { RunResult } from '../../../../src/core/run/delegation/runResult';
import { programmedModel } from '../programmedModel';
import { WorkProbe } from '../workProbe';
import { enclosedText } from '../../../../src/core/access/untrusted/untrustedText';

const twoAgents = { a: agent('does a things'), b: agent('does b things') };

function delegateOutput(events: ReturnType<typeof makeEngine>['events']): unknown {
  const finished = events.find((e): e is RunEventOf<'tool.finished'> => e.kind === 'tool.finished' && e.tool === 'delegate_task');
  return finished?.output;
}

describe('delegate_task', () => {
  it("tells the parent when a child's tool calls failed, though the child says it is done (issue 42 item 3)", async () => {
    const world = await makeWorld();
    try {
      await writeFile(join(world.root, 'invoice.ts'), 'const total = 1;\n');
      const edit = { tool: 'edit_file', input: { path: 'invoice.ts', oldText: 'no such text', newText: 'x' } };
      const h = makeEngine(
        {
          agents: {
            supervisor: [{ toolCalls: [{ tool: 'delegate_task', input: { task: 't', agents: ['a', 'b'] } }] }, { text: 'all done' }],
            a: [{ toolCalls: [edit] }, { text: 'Edited the invoice.' }],
            b: [{ text: 'from b' }],
          },
        },
        { agents: twoAgents, workspace: nodeWorkspace({ root: world.root }), settings: { approval: 'trust' } },
      );
      const { threadId, done } = await h.engine.send({ prompt: 'go' });
      await done;
      await h.engine.whenQuiet(threadId);
      const results = delegateOutput(h.events) as ModelRunResult[];
      expect(results.map((r) => [r.agent, r.status, r.failedToolCalls])).toEqual([
        ['a', 'ok', 1],
        ['b', 'ok', undefined],
      ]);
      expect(results[0]!.toolFailures).toMatch(/^1 of its tool calls failed .*may be incomplete/);
      expect(results[1]!.toolFailures).toBeUndefined();
    } finally {
      await world.cleanup();
    }
  });

  it('fans out to several agents in parallel and returns results in request order', async () => {
    const h = makeEngine(
      {
        agents: {
          supervisor: [{ toolCalls: [{ tool: 'delegate_task', input: { task: 't', agents: ['a', 'b'] } }] }, { text: 'all done' }],
          a: [{ delayMs: 150, text: 'from a', usage: { inputTokens: 5, outputTokens: 3 } }],
          b: [{ text: 'from b' }],
        },
      },
      { agents: twoAgents },
    );
    const { threadId, done } = await h.engine.send({ prompt: 'go' });
    const finished = await done;
    await h.engine.whenQuiet(threadId);

    expect(finished.status).toBe('ok');
    expect(finished.output).toBe('all done');
    const results = delegateOutput(h.events) as RunResult[];
    expect(results.map((r) => [r.agent, r.status, enclosedText(r.output)])).toEqual([
      ['a', 'ok', 'from a'],
      ['b', 'ok', 'from b'],
    ]);
    expect(results[0]!.usage).toEqual({ inputTokens: 5, outputTokens: 3, totalTokens: 8 });
    // The supervisor's run.finished rolls up the tokens of its subtree.
    const childTotals = results.reduce((n, r) => n + r.usage.totalTokens, 0);
    expect(finished.totalUsage!.totalTokens).toBe(finished.usage.totalTokens + childTotals);
    expect(childTotals).toBeGreaterThan(8);
    // b has no delay: it finished while a was still waiting, so a slow child did not hold it up.
    const order = h.events.filter((e) => e.kind === 'run.finished').map((e) => h.tree().runs[e.runId]!.agent);
    expect(order).toEqual(['b', 'a', 'supervisor']);
    // Each child ran in its own child thread under the supervisor's run.
    const [root, ...children] = h.runs();
    expect(root!.agent).toBe('supervisor');
    expect(children.map((c) => [c.agent, c.depth, c.parentRunId, c.state])).toEqual([
      ['a', 1, root!.runId, 'ok'],
      ['b', 1, root!.runId, 'ok'],
    ]);
    expect(new Set(children.map((c) => c.threadId)).size).toBe(2);
    expect(children.every((c) => c.threadId !== threadId)).toBe(true);
  });

  it('bounds the children working at once by maxConcurrency across delegate_task calls, not per call', async () => {
    const probe = new WorkProbe();
    const h = makeEngine(
      { agents: {} },
      {
        agents: { ...twoAgents, c: agent('does c things'), d: agent('does d things') },
        settings: { maxConcurrency: 2 },
        model: (c) =>
          c.agent === 'supervisor'
            ? programmedModel(({ call }) =>
                call === 0
                  ? {
                      toolCalls: [
                        { tool: 'delegate_task', input: { task: 't', agents: ['a', 'b'] } },
                        { tool: 'delegate_task', input: { task: 't', agents: ['c', 'd'] } },
                      ],
                    }
                  : { text: 'ok' },
              )
            : probe.model(
                c.agent,
                programmedModel(() => ({ delayMs: 10, text: c.agent.toUpperCase() })),
              ),
      },
    );
    expect((await (await h.engine.send({ prompt: 'go' })).done).status).toBe('ok');
    const results = h.events.flatMap((e) => (e.kind === 'tool.finished' && e.tool === 'delegate_task' ? (e.output as RunResult[]) : []));
    expect(results.map((r) => [r.agent, r.status, enclosedText(r.output)])).toEqual([
      ['a', 'ok', 'A'],
      ['b', 'ok', 'B'],
      ['c', 'ok', 'C'],
      ['d', 'ok', 'D'],
    ]);
    // Four children in two calls, two slots: never more than two at once, and both were used.
    expect(probe.max).toBe(2);
  });

  it('reports a failing child in its own slot while the others succeed', async () => {
    const h = makeEngine(
      {
        agents: {
          supervisor: [{ toolCalls: [{ tool: 'delegate_task', input: { task: 't', agents: ['a', 'b'] } }] }, { text: 'partial' }],
          a: [{ error: { status: 401, message: 'bad key' } }],
          b: [{ text: 'from b' }],
        },
      },
      { agents: twoAgents },
    );
    const { done } = await h.engine.send({ prompt: 'go' });
    expect((await done).status).toBe('ok');
    const results = delegateOutput(h.events) as RunResult[];
    expect(results[0]).toMatchObject({ agent: 'a', status: 'error' });
    expect(results[0]!.error).toContain('bad key');
    expect(results[1]).toMatchObject({ agent: 'b', status: 'ok' });
    expect(enclosedText(results[1]!.output)).toBe('from b');
  });

  it('warns about unknown names and skips them, matching names loosely', async () => {
    const h = makeEngine(
      {
        agents: {
          supervisor: [{ toolCalls: [{ tool: 'delegate_task', input: { task: 't', agents: ['nobody', ' A ', 'b'] } }] }, { text: 'ok' }],
          a: [{ text: 'A' }],
          b: [{ text: 'B' }],
        },
      },
      { agents: twoAgents },
    );
    await (
      await h.engine.send({ prompt: 'go' })
    ).done;
    const results = delegateOutput(h.events) as RunResult[];
    expect(results.map((r) => r.agent)).toEqual(['a', 'b']);
    const warning = h.events.find((e) => e.kind === 'warning');
    expect(warning && warning.kind === 'warning' && warning.message).toContain('"nobody"');
  });

  it('names a profile that failed validation as invalid, with its problem, never as unknown', async () => {
    const h = makeEngine(
      {
        agents: {
          supervisor: [{ toolCalls: [{ tool: 'delegate_task', input: { task: 't', agents: ['reviewer', 'a'] } }] }, { text: 'ok' }],
          a: [{ text: 'A' }],
        },
      },
      {
        agents: twoAgents,
        problems: [
          {
            source: '.vscode/settings.json',
            name: 'reviewer',
            field: 'description',
            message: 'must say what this agent is for',
            severity: 'error',
            code: 'no-description',
          },
        ],
      },
    );
    await (
      await h.engine.send({ prompt: 'go' })
    ).done;
    const warning = h.events.find((e) => e.kind === 'warning');
    const message = warning && warning.kind === 'warning' ? warning.message : '';
    expect(message).toMatch(/"reviewer".*invalid.*\.vscode\/settings\.json.*description.*must say what this agent is for/);
    expect(message).not.toMatch(/unknown/i);
    expect((delegateOutput(h.events) as RunResult[]).map((r) => r.agent)).toEqual(['a']);
  });

  it.each([
    [
      { task: 't', agents: ['x', 'y'] },
      /None of the requested agents \(x, y\).*Available agents: a \(does a things\); b \(does b things\)/,
    ],
    [{ task: '   ', agents: ['a'] }, /non-empty "task"/],
    [{ task: 't', agents: [] }, /Name at least one agent in "agents".*a \(does a things\)/],
  ])('returns an error result the model can act on for %j', async (input, message) => {
    const h = makeEngine(
      { agents: { supervisor: [{ toolCalls: [{ tool: 'delegate_task', input }] }, { text: 'recovered' }] } },
      { agents: twoAgents },
    );
    const finished = await (await h.engine.send({ prompt: 'go' })).done;
    expect(finished.status).toBe('ok');
    expect(finished.output).toBe('recovered');
    const output = delegateOutput(h.events) as { error: string };
    expect(output.error).toMatch(message);
    const toolEvent = h.events.find((e) => e.kind === 'tool.finished');
    expect(toolEvent && toolEvent.kind === 'tool.finished' && toolEvent.isError).toBe(true);
    expect(h.runs()).toHaveLength(1);
  });
});
