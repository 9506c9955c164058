import { describe, expect, it } from 'vitest';
import type { RunEvent, RunEventOf } from '../../../../src/shared/events';
import { MAX_OUTPUT_CHARS } from '../../../../src/core/run/delegation/modelResult';
import { agent, makeEngine } from '../engineHarness';
import { programmedModel, type ProgramContext } from '../programmedModel';
import { enclosedText } from '../../../../src/core/access/untrusted/untrustedText';

const toolOutputs = (events: RunEvent[], tool: string) =>
  events.filter((e): e is RunEventOf<'tool.finished'> => e.kind === 'tool.finished' && e.tool === tool).map((e) => e.output);
const delegate = (agents: string[], task = 't') => ({ toolCalls: [{ tool: 'delegate_task', input: { task, agents } }] });

describe('bail, limits and long output', () => {
  it('returnDirectly: the answer is the child output verbatim, flagged bailed, without another supervisor call', async () => {
    let supervisorCalls = 0;
    const h = makeEngine(
      { agents: { writer: [{ text: 'The *exact* words of the writer.' }] } },
      {
        agents: { writer: agent('writes', { returnDirectly: true }) },
        model: (c) =>
          c.agent === 'supervisor'
            ? programmedModel(({ call }) => {
                supervisorCalls++;
                return call === 0 ? delegate(['writer']) : { text: 'a summary that must not happen' };
              })
            : undefined,
      },
    );
    const finished = await (await h.engine.send({ prompt: 'write' })).done;
    expect(finished).toMatchObject({ status: 'ok', output: 'The *exact* words of the writer.', bailed: true });
    expect(supervisorCalls).toBe(1);
    expect(h.tree().runs[finished.runId]!.bailed).toBe(true);
  });

  it('a long child output reaches the supervisor as a preview and a reference; the tree keeps all of it', async () => {
    const long = 'word '.repeat(MAX_OUTPUT_CHARS / 2);
    const h = makeEngine(
      { agents: { supervisor: [delegate(['a']), { text: 'ok' }], a: [{ text: long, chunks: 4 }] } },
      { agents: { a: agent('a') } },
    );
    await (
      await h.engine.send({ prompt: 'go' })
    ).done;
    const [results] = toolOutputs(h.events, 'delegate_task') as {
      output: string;
      threadId: string;
      runId: string;
      outputTruncated: { totalChars: number; threadId: string };
    }[][];
    const r = results![0]!;
    expect(r.output.length).toBeLessThan(long.length / 2);
    expect(r.outputTruncated).toMatchObject({ totalChars: long.length, threadId: r.threadId, runId: r.runId });
    expect(h.tree().runs[r.runId]!.output).toBe(long);
  });

  it('a profile timeoutMs ends the run as timeout with a message naming the limit', async () => {
    const h = makeEngine(
      { agents: { supervisor: [delegate(['slow']), { text: 'after' }], slow: [{ delayMs: 60_000, text: 'late' }] } },
      { agents: { slow: agent('slow', { timeoutMs: 50 }) } },
    );
    await (
      await h.engine.send({ prompt: 'go' })
    ).done;
    const r = (toolOutputs(h.events, 'delegate_task') as { status: string; error: string }[][])[0]![0];
    expect(r).toMatchObject({
      status: 'timeout',
      error: expect.stringMatching(/Timed out after 50 ms \(the "slow" profile's timeoutMs\)/),
    });
  });

  it('a run that uses all its maxSteps ends as max_steps with its partial output', async () => {
    let calls = 0;
    const looping = programmedModel(({ call }) => {
      calls++;
      return { text: `step ${call + 1}.`, toolCalls: [{ tool: 'missing_tool', input: {} }] };
    });
    const h = makeEngine({ agents: {} }, { agents: { looper: agent('loops', { maxSteps: 3 }) }, model: () => looping });
    const finished = await (await h.engine.send({ prompt: 'go', agent: 'looper' })).done;
    expect(calls).toBe(3);
    expect(finished).toMatchObject({ status: 'max_steps', output: 'step 1.\n\nstep 2.\n\nstep 3.' });
    expect(finished.error).toMatch(/all 3 steps.*maxSteps/);
  });

  it('a child that runs out of steps reports max_steps to its parent, with what it had', async () => {
    const h = makeEngine(
      { agents: { supervisor: [delegate(['looper']), { text: 'noted' }] } },
      {
        agents: { looper: agent('loops', { maxSteps: 2 }) },
        model: (c) =>
          c.agent === 'looper'
            ? programmedModel(() => ({ text: 'still going', toolCalls: [{ tool: 'missing_tool', input: {} }] }))
            : undefined,
      },
    );
    const finished = await (await h.engine.send({ prompt: 'go' })).done;
    expect(finished.status).toBe('ok');
    const [results] = toolOutputs(h.events, 'delegate_task') as { status: string; output: string }[][];
    expect(results![0]).toMatchObject({ status: 'max_steps' });
    expect(enclosedText(results![0]!.output)).toBe('still going\n\nstill going');
    expect(h.runs().map((r) => r.state)).toEqual(['ok', 'max_steps']);
  });

  it('with maxDepth 2 a child may delegate, but never to an agent already on its path', async () => {
    const programs: Record<string, (ctx: ProgramContext) => ReturnType<Parameters<typeof programmedModel>[0]>> = {
      supervisor: ({ call }) => (call === 0 ? delegate(['a']) : { text: 'top done' }),
      a: ({ call }) => (call === 0 ? delegate(['supervisor', 'a', 'b']) : { text: 'a done' }),
      b: (ctx) => {
        offeredToB.push(...(ctx.options.tools ?? []).map((t) => t.name));
        return { text: 'b done' };
      },
    };
    const offeredToB: string[] = [];
    const h = makeEngine(
      { agents: {} },
      { agents: { a: agent('a'), b: agent('b') }, settings: { maxDepth: 2 }, model: (c) => programmedModel(programs[c.agent]!) },
    );
    await (
      await h.engine.send({ prompt: 'go' })
    ).done;
    expect(h.runs().map((r) => [r.agent, r.depth, r.state])).toEqual([
      ['supervisor', 0, 'ok'],
      ['a', 1, 'ok'],
      ['b', 2, 'ok'],
    ]);
    const warning = h.events.find((e): e is RunEventOf<'warning'> => e.kind === 'warning');
    expect(warning?.message).toMatch(/Skipped "supervisor", "a": already working on this task further up \(supervisor > a\)/);
    // b, at the depth limit, was offered tools, but none to delegate with.
    expect(offeredToB).toContain('read_file');
    expect(offeredToB.filter((t) => t === 'delegate_task' || t.startsWith('subagent_'))).toEqual([]);
  });

  it('continues a child thread with its history, and refuses another agent with how to start afresh', async () => {
    const seen: string[][] = [];
    const programs: Record<string, (ctx: ProgramContext) => ReturnType<Parameters<typeof programmedModel>[0]>> = {
      supervisor: ({ call, lastToolOutput }) => {
        const out = lastToolOutput() as { threadId: string }[];
        if (call === 0) return delegate(['a'], 'remember 42');
        if (call === 1)
          return {
            toolCalls: [{ tool: 'delegate_task', input: { task: 'what number?', agents: ['a'], continueThreadId: out[0]!.threadId } }],
          };
        if (call === 2)
          return { toolCalls: [{ tool: 'delegate_task', input: { task: 'x', agents: ['b'], continueThreadId: out[0]!.threadId } }] };
        return { text: 'end' };
      },
      a: ({ userTexts }) => {
        seen.push(userTexts());
        return { text: `a saw ${userTexts().length} messages` };
      },
      b: () => ({ text: 'b' }),
    };
    const h = makeEngine({ agents: {} }, { agents: { a: agent('a'), b: agent('b') }, model: (c) => programmedModel(programs[c.agent]!) });
    await (
      await h.engine.send({ prompt: 'go' })
    ).done;
    expect(seen[1]).toEqual(['remember 42', 'what number?']);
    const outputs = toolOutputs(h.events, 'delegate_task') as { threadId: string; status: string; error?: string }[][];
    expect(outputs[1]![0]!.threadId).toBe(outputs[0]![0]!.threadId);
    expect(outputs[2]![0]).toMatchObject({
      status: 'error',
      error: expect.stringMatching(/belongs to agent "a", not "b".*leave out continueThreadId to start a fresh thread with "b"/),
    });
  });
});
