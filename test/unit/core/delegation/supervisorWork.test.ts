import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../../../src/core/run/delegation/runResult';
import { enclosedText } from '../../../../src/core/access/untrusted/untrustedText';
import type { RunEventOf } from '../../../../src/shared/events';
import type { ProfileInput } from '../../../../src/core/config/profiles/profile';
import { agent, makeEngine } from '../engineHarness';
import { programmedModel, type ProgramContext, type ProgramStep } from '../programmedModel';

const systemOf = (o: LanguageModelV4CallOptions) =>
  o.prompt
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n');

function delegateOutputs(events: ReturnType<typeof makeEngine>['events']): unknown[] {
  return events
    .filter((e): e is RunEventOf<'tool.finished'> => e.kind === 'tool.finished' && e.tool === 'delegate_task')
    .map((e) => e.output);
}

/** An engine whose every agent runs its own program (one model per agent); each agent's system prompt is kept. */
function engineWith(
  programs: Record<string, (ctx: ProgramContext) => ProgramStep | Promise<ProgramStep>>,
  agents: Record<string, ProfileInput> = { a: agent('does a things'), b: agent('does b things') },
) {
  const systems: Record<string, string> = {};
  const models = Object.fromEntries(
    Object.entries(programs).map(([name, program]) => [
      name,
      programmedModel((ctx) => {
        systems[name] ??= systemOf(ctx.options);
        return program(ctx);
      }),
    ]),
  );
  const h = makeEngine({ agents: {} }, { agents, model: (c) => models[c.agent] });
  return { ...h, systems };
}

describe('delegate_task with a task per agent', () => {
  it('runs different tasks on different agents (the same agent twice too) in one call, results in the order of tasks', async () => {
    const seen: string[] = [];
    const child = ({ userTexts }: ProgramContext): ProgramStep => {
      const prompt = userTexts()[0]!;
      seen.push(prompt);
      return { text: `done: ${prompt.split('\n')[0]}` };
    };
    const h = engineWith({
      supervisor: ({ call }) =>
        call === 0
          ? {
              toolCalls: [
                {
                  tool: 'delegate_task',
                  input: {
                    context: 'The repo is a TypeScript library.',
                    tasks: [
                      { agent: 'a', task: 'audit src/parse.ts', context: 'parse.ts had a bug report' },
                      { agent: 'b', task: 'run the test suite' },
                      { agent: 'a', task: 'audit src/format.ts' },
                      { agent: 'nobody', task: 'x' },
                    ],
                  },
                },
              ],
            }
          : { text: 'summary' },
      a: child,
      b: child,
    });
    const finished = await (await h.engine.send({ prompt: 'go' })).done;
    expect(finished.status).toBe('ok');
    const results = delegateOutputs(h.events)[0] as RunResult[];
    expect(results.map((r) => [r.agent, r.status, r.status === 'ok' ? enclosedText(r.output) : r.error])).toEqual([
      ['a', 'ok', 'done: audit src/parse.ts'],
      ['b', 'ok', 'done: run the test suite'],
      ['a', 'ok', 'done: audit src/format.ts'],
      ['nobody', 'error', expect.stringContaining('None of the requested agents (nobody) is available here')],
    ]);
    // Each run got its own task, the shared context and its own.
    expect(seen).toContain('audit src/parse.ts\n\n## Context\nThe repo is a TypeScript library.\n\nparse.ts had a bug report');
    expect(seen).toContain('run the test suite\n\n## Context\nThe repo is a TypeScript library.');
    expect(
      h
        .runs()
        .filter((r) => r.depth === 1)
        .map((r) => r.task)
        .sort(),
    ).toEqual(['audit src/format.ts', 'audit src/parse.ts', 'run the test suite']);
  });

  it('refuses a call that mixes both forms, has neither, or asks for more than 32 runs, saying what it takes', async () => {
    const h = engineWith({
      supervisor: ({ call }) => {
        if (call === 0)
          return { toolCalls: [{ tool: 'delegate_task', input: { task: 't', agents: ['a'], tasks: [{ agent: 'b', task: 'u' }] } }] };
        if (call === 1) return { toolCalls: [{ tool: 'delegate_task', input: { agents: ['a'] } }] };
        if (call === 2)
          return {
            toolCalls: [
              { tool: 'delegate_task', input: { tasks: Array.from({ length: 33 }, (_, i) => ({ agent: 'a', task: `part ${i}` })) } },
            ],
          };
        return { text: 'ok' };
      },
      a: () => ({ text: 'must not run' }),
      b: () => ({ text: 'must not run' }),
    });
    await (
      await h.engine.send({ prompt: 'go' })
    ).done;
    const [both, neither, tooMany] = delegateOutputs(h.events) as { error: string }[];
    expect(both!.error).toContain('either "task" with "agents" (one task, several agents) or "tasks" (a task per agent), not both');
    expect(neither!.error).toContain('needs a non-empty "task"');
    expect(tooMany!.error).toContain('"tasks" has 33 entries; one call takes at most 32.');
    expect(h.runs().filter((r) => r.depth === 1)).toEqual([]);
  });
});

describe("a child's result", () => {
  it('is its final report: the narration of earlier steps stays in its thread and the tree, not in the result', async () => {
    const h = engineWith({
      supervisor: ({ call }) =>
        call === 0 ? { toolCalls: [{ tool: 'delegate_task', input: { task: 'review', agents: ['a'] } }] } : { text: 'done' },
      a: ({ call }) =>
        call === 0
          ? { text: "I'll start by looking for the parser.", toolCalls: [{ tool: 'no_such_tool', input: {} }] }
          : { text: 'REPORT: one bug in parse.ts line 12.' },
    });
    const { threadId, done } = await h.engine.send({ prompt: 'go' });
    await done;
    await h.engine.whenQuiet(threadId);
    const [result] = delegateOutputs(h.events)[0] as RunResult[];
    expect(enclosedText(result!.output)).toBe('REPORT: one bug in parse.ts line 12.');
    const child = h.runs().find((r) => r.agent === 'a')!;
    expect(child.output).toBe('REPORT: one bug in parse.ts line 12.');
    expect(child.text).toBe("I'll start by looking for the parser.\n\nREPORT: one bug in parse.ts line 12.");
    const deltas = h.events
      .filter((e) => e.kind === 'text.delta' && e.runId === child.runId)
      .map((e) => (e.kind === 'text.delta' ? e.text : ''))
      .join('');
    expect(deltas).toContain("I'll start by looking for the parser.");
  });

  it('keeps everything a child wrote when it did not finish (its partial work is all there is)', async () => {
    const h = engineWith(
      {
        supervisor: ({ call }) =>
          call === 0 ? { toolCalls: [{ tool: 'delegate_task', input: { task: 'review', agents: ['a'] } }] } : { text: 'done' },
        a: ({ call }) => ({ text: `step ${call}`, toolCalls: [{ tool: 'no_such_tool', input: {} }] }),
      },
      { a: agent('does a things', { maxSteps: 2 }) },
    );
    await (
      await h.engine.send({ prompt: 'go' })
    ).done;
    const [result] = delegateOutputs(h.events)[0] as RunResult[];
    expect(result!.status).toBe('max_steps');
    expect(enclosedText(result!.output)).toBe('step 0\n\nstep 1');
  });
});

describe('what the prompts say', () => {
  it('tells the supervisor when to give several tasks in one call and when to start a child in the background, and a child that its user cannot be reached', async () => {
    const h = engineWith(
      {
        supervisor: ({ call }) =>
          call === 0 ? { toolCalls: [{ tool: 'delegate_task', input: { task: 'review', agents: ['a'] } }] } : { text: 'done' },
        a: () => ({ text: 'report' }),
      },
      {
        a: agent('does a things', { instructions: 'Review the code. Confirm with the user before changing anything.' }),
        b: agent('does b things'),
      },
    );
    await (
      await h.engine.send({ prompt: 'go' })
    ).done;
    const supervisor = h.systems['supervisor']!;
    expect(supervisor).toContain('`tasks`');
    expect(supervisor).toContain('`background: true`');
    expect(supervisor).toContain('background_runs');
    const child = h.systems['a']!;
    expect(child).toContain('Confirm with the user before changing anything.');
    expect(child).toContain('Nobody can be reached while you work: not the user, not your supervisor.');
    expect(child).toContain('ask, check or confirm with the user, decide yourself, go on, and state each assumption in your report');
    expect(child).toContain('only that message reaches your supervisor');
  });
});
