import { describe, expect, it } from 'vitest';
import type { RunEvent, RunEventOf } from '../../../../src/shared/events';
import type { ScriptTurn } from '../../../../src/core/models/scriptSchema';
import { budgetWarningText } from '../../../../src/core/run/budget/tokenBudget';
import { enclosedText } from '../../../../src/core/access/untrusted/untrustedText';
import { ManualSchedule } from '../../fakes/manualSchedule';
import { agent, makeEngine } from '../engineHarness';
import { programmedModel } from '../programmedModel';

const toolOutputs = (events: RunEvent[], tool: string) =>
  events.filter((e): e is RunEventOf<'tool.finished'> => e.kind === 'tool.finished' && e.tool === tool).map((e) => e.output);
const delegate = (agents: string[], extra: Record<string, unknown> = {}) => ({
  toolCalls: [{ tool: 'delegate_task', input: { task: 't', agents, ...extra } }],
});
/** A step that reports `tokens` used and asks for another step (a tool that does not exist: its error is the result). */
const busyStep = (text: string, tokens: number): ScriptTurn => ({
  text,
  toolCalls: [{ tool: 'missing_tool', input: {} }],
  usage: { inputTokens: tokens - 10, outputTokens: 10 },
});
const warnings = (events: RunEvent[], code?: string) =>
  events.filter((e): e is RunEventOf<'warning'> => e.kind === 'warning' && (code === undefined || e.code === code));
const config = (events: RunEvent[], runId: string) =>
  events.find((e): e is RunEventOf<'run.config'> => e.kind === 'run.config' && e.runId === runId)!;

interface ModelResult {
  status: string;
  output: string;
  error?: string;
  usage: { totalTokens: number };
  runId: string;
}

describe('token budgets', () => {
  it('a child that reaches its maxTokens mid-run ends as budget with its partial output; its parent gets that and goes on', async () => {
    const h = makeEngine(
      {
        agents: {
          supervisor: [delegate(['digger']), { text: 'I have what the digger found so far.' }],
          digger: [busyStep('found a.', 60), busyStep('found b.', 60), busyStep('found c.', 60)],
        },
      },
      { agents: { digger: agent('digs', { maxTokens: 100 }) } },
    );
    const finished = await (await h.engine.send({ prompt: 'go' })).done;
    expect(finished).toMatchObject({ status: 'ok', output: 'I have what the digger found so far.' });
    const result = (toolOutputs(h.events, 'delegate_task') as ModelResult[][])[0]![0];
    // Two calls (60 + 60 = 120 of 100): the third is never made.
    expect(result).toMatchObject({ status: 'budget', usage: { totalTokens: 120 } });
    expect(enclosedText(result!.output)).toBe('found a.\n\nfound b.');
    expect(result!.error).toBe(
      'Stopped at its token budget: 120 of 100 tokens used (the "digger" profile\'s maxTokens). The output is what it had done by then.',
    );
    expect(h.runs().map((r) => [r.agent, r.state])).toEqual([
      ['supervisor', 'ok'],
      ['digger', 'budget'],
    ]);
  });

  it('warns once at 80 % of a limit, with code budget, on the run whose limit it is', async () => {
    const h = makeEngine(
      {
        agents: {
          supervisor: [delegate(['digger']), { text: 'ok' }],
          digger: [
            busyStep('1', 30),
            busyStep('2', 30),
            busyStep('3', 25),
            busyStep('4', 10),
            { text: 'done', usage: { inputTokens: 1, outputTokens: 1 } },
          ],
        },
      },
      { agents: { digger: agent('digs', { maxTokens: 100 }) } },
    );
    await (
      await h.engine.send({ prompt: 'go' })
    ).done;
    const digger = h.runs().find((r) => r.agent === 'digger')!;
    const budgetWarnings = warnings(h.events, 'budget');
    expect(budgetWarnings).toHaveLength(1);
    expect(budgetWarnings[0]).toMatchObject({
      runId: digger.runId,
      message: expect.stringMatching(/^85 % of the token budget is used: 85 of 100 tokens \(the "digger" profile's maxTokens\)/),
    });
    // It went on under the limit (95 used), and finished on its own.
    expect(digger.state).toBe('ok');
  });

  it('the request budget is shared by three children and the supervisor: when it is spent, each ends as budget', async () => {
    const steps = (name: string) => [
      busyStep(`${name}1`, 50),
      busyStep(`${name}2`, 50),
      busyStep(`${name}3`, 50),
      busyStep(`${name}4`, 50),
    ];
    const h = makeEngine(
      {
        agents: {
          supervisor: [{ ...delegate(['a', 'b', 'c']), usage: { inputTokens: 20, outputTokens: 10 } }, { text: 'never called' }],
          a: steps('a'),
          b: steps('b'),
          c: steps('c'),
        },
      },
      { agents: { a: agent('a'), b: agent('b'), c: agent('c') }, settings: { budget: { maxTokens: 300 } } },
    );
    const finished = await (await h.engine.send({ prompt: 'go' })).done;
    const children = h.runs().filter((r) => r.depth === 1);
    expect(children.map((r) => r.state)).toEqual(['budget', 'budget', 'budget']);
    // 30 for the supervisor's call, then 50 a call: the children stop once 300 are used, never long after.
    const total = h.runs().reduce((n, r) => n + r.usage.totalTokens, 0);
    expect(total).toBeGreaterThanOrEqual(300);
    expect(total).toBeLessThan(300 + 3 * 50);
    expect(finished.status).toBe('budget');
    expect(finished.error).toMatch(
      /^Stopped at its token budget: \d+ of 300 tokens used \(subagents\.budget\.maxTokens, for the whole request\)/,
    );
    expect(warnings(h.events, 'budget').map((w) => w.runId)).toEqual([finished.runId]);
  });

  it('a lowered maxTokens in the call limits the child and caps what each of its model calls may write', async () => {
    const asked: (number | undefined)[] = [];
    const child = programmedModel(({ call, options }) => {
      asked.push(options.maxOutputTokens);
      return call === 0
        ? { text: 'looking', toolCalls: [{ tool: 'missing_tool', input: {} }], usage: { inputTokens: 15, outputTokens: 5 } }
        : { text: 'done' };
    });
    const h = makeEngine(
      { agents: { supervisor: [delegate(['digger'], { maxTokens: 50 }), { text: 'ok' }] } },
      { agents: { digger: agent('digs', { maxTokens: 1000 }) }, model: (c) => (c.agent === 'digger' ? child : undefined) },
    );
    await (
      await h.engine.send({ prompt: 'go' })
    ).done;
    expect(asked).toEqual([50, 30]);
    const digger = h.runs().find((r) => r.agent === 'digger')!;
    expect(config(h.events, digger.runId).limits.maxTokens).toEqual({
      value: 50,
      source: 'the maxTokens of its delegate_task call; the profile allows 1,000',
    });
  });

  it('a call may not raise the profile maxTokens: refused before the child starts, with what is allowed', async () => {
    const h = makeEngine(
      {
        agents: {
          supervisor: [
            { toolCalls: [{ tool: 'delegate_task', input: { task: 't', agents: ['digger'], maxTokens: 5000, background: true } }] },
            { text: 'ok' },
          ],
        },
      },
      { agents: { digger: agent('digs', { maxTokens: 1000 }) } },
    );
    await (
      await h.engine.send({ prompt: 'go' })
    ).done;
    expect(toolOutputs(h.events, 'delegate_task')).toEqual([
      {
        error:
          'maxTokens 5,000 is more than the "digger" profile allows (1,000, set in test); delegate_task may only lower it. Ask for 1,000 or less, or leave maxTokens out to use the profile\'s.',
      },
    ]);
    expect(h.runs().map((r) => r.agent)).toEqual(['supervisor']);
  });

  it('a child is never given more than its parent has left', async () => {
    const h = makeEngine(
      {
        agents: {
          supervisor: [{ ...delegate(['digger']), usage: { inputTokens: 300, outputTokens: 100 } }, { text: 'ok' }],
          digger: [{ text: 'done', usage: { inputTokens: 5, outputTokens: 5 } }],
        },
      },
      { agents: { digger: agent('digs', { maxTokens: 5000 }) }, settings: { budget: { maxTokens: 1000 } } },
    );
    await (
      await h.engine.send({ prompt: 'go' })
    ).done;
    const [top, digger] = h.runs();
    expect(config(h.events, top!.runId).limits.maxTokens).toEqual({
      value: 1000,
      source: 'subagents.budget.maxTokens, for the whole request',
    });
    expect(config(h.events, digger!.runId).limits.maxTokens).toEqual({
      value: 600,
      source: 'what its parent had left when it started; its own limit, the "digger" profile\'s maxTokens, is 5,000',
    });
  });

  it('a spent request timeoutMs ends the supervisor as timeout, whatever its children were doing', async () => {
    const clock = new ManualSchedule();
    const h = makeEngine(
      { agents: { supervisor: [delegate(['slow']), { text: 'never' }], slow: [{ delayMs: 600_000, text: 'late' }] } },
      { agents: { slow: agent('slow') }, settings: { budget: { timeoutMs: 90_000 } }, schedule: clock.schedule, clock: clock.clock },
    );
    const { done } = await h.engine.send({ prompt: 'go' });
    await until(() => h.runs().some((r) => r.agent === 'slow'));
    clock.advance(90_000);
    const finished = await done;
    expect(finished).toMatchObject({
      status: 'timeout',
      error: 'Timed out after 90000 ms (subagents.budget.timeoutMs, for the whole request).',
    });
    expect(h.runs().map((r) => r.state)).toEqual(['timeout', 'cancelled']);
  });
});

/** Resolves once `ready` holds, checking after each turn of the event loop (no fixed sleep). */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((r) => setImmediate(r));
}

describe('the budget warning', () => {
  it('says the budget is used up when one call goes past all of it', () => {
    expect(budgetWarningText(85, { value: 100, source: 'x' })).toBe(
      '85 % of the token budget is used: 85 of 100 tokens (x). At the limit the run stops and hands back what it has done.',
    );
    expect(budgetWarningText(120, { value: 100, source: 'x' })).toBe(
      'The token budget is used up: 120 of 100 tokens (x). The run makes no further model call and hands back what it has done.',
    );
  });
});

describe('background_runs status', () => {
  it("shows a working child's tokens so far, with its limit", async () => {
    let hanging = () => {};
    const hung = new Promise<void>((resolve) => (hanging = resolve));
    let runId = '';
    const child = programmedModel(({ call }) => {
      if (call === 0)
        return { text: 'step one', toolCalls: [{ tool: 'missing_tool', input: {} }], usage: { inputTokens: 30, outputTokens: 12 } };
      hanging();
      return new Promise(() => {});
    });
    const supervisor = programmedModel(({ call, lastToolOutput }) => {
      if (call === 0) return { toolCalls: [{ tool: 'delegate_task', input: { task: 't', agents: ['digger'], background: true } }] };
      if (call === 1) {
        runId = (lastToolOutput() as { runId: string }[])[0]!.runId;
        return hung.then(() => ({ toolCalls: [{ tool: 'background_runs', input: { action: 'status', runIds: [runId] } }] }));
      }
      if (call === 2) return { toolCalls: [{ tool: 'background_runs', input: { action: 'cancel', runIds: [runId] } }] };
      return { text: 'done' };
    });
    const h = makeEngine(
      { agents: {} },
      { agents: { digger: agent('digs', { maxTokens: 1000 }) }, model: (c) => (c.agent === 'digger' ? child : supervisor) },
    );
    await (
      await h.engine.send({ prompt: 'go' })
    ).done;
    expect(toolOutputs(h.events, 'background_runs')[0]).toEqual([
      expect.objectContaining({ status: 'running', tokens: { used: 42, limit: 1000 } }),
    ]);
  });
});
