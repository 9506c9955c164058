import { APICallError } from '@ai-sdk/provider';
import { isStepCount, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseScript } from '../../../../src/core/models/scriptSchema';
import { ScriptExhaustedError, ScriptPlayer, splitText } from '../../../../src/core/models/scriptedModel';
import { systemDelay } from '../../../../src/core/ports';

function player(agents: Record<string, unknown[]>, options?: ConstructorParameters<typeof ScriptPlayer>[2]): ScriptPlayer {
  return new ScriptPlayer(parseScript({ agents }, 'inline script'), 'test.json', options);
}

describe('splitText', () => {
  it('splits at word boundaries and loses nothing', () => {
    const text = 'The quick brown fox jumps over the lazy dog, twice.';
    const parts = splitText(text);
    expect(parts.join('')).toBe(text);
    expect(parts.length).toBeGreaterThanOrEqual(3);
    expect(parts.length).toBeLessThanOrEqual(6);
  });

  it('gives long text more parts and honours an explicit count', () => {
    const long = Array.from({ length: 200 }, (_, i) => `w${i}`).join(' ');
    expect(splitText(long).length).toBe(50);
    expect(splitText(long, 7)).toHaveLength(7);
    expect(splitText(long, 7).join('')).toBe(long);
    expect(splitText('one')).toEqual(['one']);
  });
});

describe('ScriptPlayer with streamText', () => {
  it('streams text in several deltas with the scripted usage', async () => {
    const p = player({ a: [{ text: 'hello there from the scripted model', usage: { inputTokens: 5, outputTokens: 3 } }] });
    const result = streamText({ model: p.modelFor({ agent: 'a', task: 't' }), prompt: 'hi' });
    const deltas: string[] = [];
    for await (const part of result.fullStream) if (part.type === 'text-delta') deltas.push(part.text);
    expect(deltas.length).toBeGreaterThanOrEqual(3);
    expect(deltas.join('')).toBe('hello there from the scripted model');
    const usage = await result.usage;
    expect(usage.inputTokens).toBe(5);
    expect(usage.outputTokens).toBe(3);
    expect(usage.totalTokens).toBe(8);
    expect(await result.finishReason).toBe('stop');
  });

  it('estimates usage from lengths when the turn gives none', async () => {
    const p = player({ a: [{ text: 'x'.repeat(40) }] });
    const result = streamText({ model: p.modelFor({ agent: 'a', task: 't' }), prompt: 'y'.repeat(400) });
    const usage = await result.usage;
    expect(usage.outputTokens).toBe(10);
    expect(usage.inputTokens).toBeGreaterThanOrEqual(100);
  });

  it('plays tool calls that a real tool executes over several steps', async () => {
    const p = player({
      a: [
        {
          toolCalls: [
            { tool: 'add', input: { x: 2, y: 3 } },
            { tool: 'add', input: { x: 10, y: 1 } },
          ],
        },
        { text: 'the sums are ready' },
      ],
    });
    const seen: number[] = [];
    const add = tool({
      description: 'adds',
      inputSchema: z.object({ x: z.number(), y: z.number() }),
      execute: async ({ x, y }) => {
        seen.push(x + y);
        return x + y;
      },
    });
    const result = streamText({
      model: p.modelFor({ agent: 'a', task: 't' }),
      prompt: 'add things',
      tools: { add },
      stopWhen: isStepCount(3),
    });
    const callIds: string[] = [];
    for await (const part of result.fullStream) if (part.type === 'tool-call') callIds.push(part.toolCallId);
    expect(seen.sort((a, b) => a - b)).toEqual([5, 11]);
    expect(await result.text).toBe('the sums are ready');
    expect((await result.steps).map((s) => s.finishReason)).toEqual(['tool-calls', 'stop']);
    expect(new Set(callIds).size).toBe(2);
    expect(callIds[0]).toMatch(/^call_a_0_0_[0-9a-f]{8}$/);
  });

  it('gives the same call ids for the same prompt and different ones for another prompt', async () => {
    const script = { a: [{ toolCalls: [{ tool: 'x', input: {} }] }] };
    const ids = async (prompt: string) => {
      const result = streamText({ model: player(script).modelFor({ agent: 'a', task: 't' }), prompt });
      const out: string[] = [];
      for await (const part of result.fullStream) if (part.type === 'tool-call') out.push(part.toolCallId);
      return out;
    };
    expect(await ids('one')).toEqual(await ids('one'));
    expect(await ids('one')).not.toEqual(await ids('two'));
  });

  it('retries a 429 turn with maxRetries and then plays the next turn', async () => {
    const p = player({ b: [{ error: { status: 429, message: 'rate limited' } }, { text: 'from b' }] });
    const result = streamText({ model: p.modelFor({ agent: 'b', task: 't' }), prompt: 'go', maxRetries: 2 });
    expect(await result.text).toBe('from b');
  });

  it('does not retry a 400 and reports the status', async () => {
    const p = player({ b: [{ error: { status: 400, message: 'bad request' } }, { text: 'never' }] });
    const errors: unknown[] = [];
    const result = streamText({
      model: p.modelFor({ agent: 'b', task: 't' }),
      prompt: 'go',
      maxRetries: 2,
      onError: ({ error }) => void errors.push(error),
    });
    await expect(result.text).rejects.toThrow();
    const error = errors[0];
    expect(APICallError.isInstance(error)).toBe(true);
    expect((error as APICallError).statusCode).toBe(400);
    expect((error as APICallError).isRetryable).toBe(false);
  });

  it('picks turns by match: substring and /regex/flags, in order', () => {
    const p = player({
      a: [{ match: 'alpha', text: '1' }, { match: '/^BETA\\d$/i', text: '2' }, { text: '3' }, { match: 'alpha', text: '4' }],
    });
    expect(p.take({ agent: 'a', task: 'beta7' }).index).toBe(1);
    expect(p.take({ agent: 'a', task: 'the alpha task' }).index).toBe(0);
    expect(p.take({ agent: 'a', task: 'gamma' }).index).toBe(2);
    expect(() => p.take({ agent: 'a', task: 'gamma' })).toThrow(ScriptExhaustedError);
    expect(p.take({ agent: 'a', task: 'alpha again' }).index).toBe(3);
  });

  it('shares used turns between the runs of one player', () => {
    const p = player({ a: [{ text: '1' }, { text: '2' }] });
    expect(p.take({ agent: 'a', task: 'x' }).index).toBe(0);
    expect(p.take({ agent: 'a', task: 'y' }).index).toBe(1);
  });

  it('plays a fallback turn when no other turn fits, as often as needed; the other turns keep their order', () => {
    const p = player({
      a: [
        { fallback: true, text: 'I only know the invoice question.' },
        { match: 'invoice', text: 'about invoices' },
      ],
    });
    expect(p.take({ agent: 'a', task: 'what is the weather' }).turn.text).toBe('I only know the invoice question.');
    expect(p.take({ agent: 'a', task: 'the invoice totals' }).turn.text).toBe('about invoices');
    // The matching turn is used up: what comes next falls back, however many times.
    expect(p.take({ agent: 'a', task: 'the invoice totals' }).index).toBe(0);
    expect(p.take({ agent: 'a', task: 'hello' }).index).toBe(0);
    // A fallback may have a match of its own; one that does not fit is no fallback for that task.
    const picky = player({ a: [{ fallback: true, match: 'demo', text: 'demo only' }] });
    expect(picky.take({ agent: 'a', task: 'a demo question' }).turn.text).toBe('demo only');
    expect(() => picky.take({ agent: 'a', task: 'other' })).toThrow(ScriptExhaustedError);
  });

  it('fails clearly, without retries, when no turn is left', async () => {
    const p = player({ a: [{ match: 'other', text: '1' }] });
    const errors: unknown[] = [];
    const result = streamText({
      model: p.modelFor({ agent: 'a', task: 'my task' }),
      prompt: 'go',
      maxRetries: 5,
      onError: ({ error }) => void errors.push(error),
    });
    await expect(result.text).rejects.toThrow();
    expect(errors).toHaveLength(1);
    expect(String((errors[0] as Error).message)).toBe(
      'scripted model: no turn left for agent "a" matching task "my task" (the script has 1 turns for "a", 0 used). Add a turn for "a" to test.json.',
    );
  });

  it('stops waiting when aborted mid-delay', async () => {
    const controller = new AbortController();
    const waits: number[] = [];
    // The model's own wait, cancelled the moment it begins: only the abort can end it.
    const p = player(
      { a: [{ delayMs: 60_000, text: 'too late' }] },
      {
        delay: (ms, signal) => {
          waits.push(ms);
          const waiting = systemDelay(ms, signal);
          controller.abort();
          return waiting;
        },
      },
    );
    const result = streamText({ model: p.modelFor({ agent: 'a', task: 't' }), prompt: 'go', abortSignal: controller.signal });
    const types: string[] = [];
    for await (const part of result.fullStream) types.push(part.type);
    expect(waits).toEqual([60_000]);
    expect(types).toContain('abort');
    expect(types).not.toContain('text-delta');
    // The turn was taken, so the abort reached the model inside its delay, not before the call.
    expect(() => p.take({ agent: 'a', task: 't' })).toThrow(/1 used/);
  });

  it('rejects doStream with the abort reason when aborted during the delay', async () => {
    const p = player({ a: [{ delayMs: 60_000, text: 'too late' }] });
    const controller = new AbortController();
    const pending = p.modelFor({ agent: 'a', task: 't' }).doStream({
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'go' }] }],
      abortSignal: controller.signal,
    });
    controller.abort(new Error('stop now'));
    await expect(pending).rejects.toThrow('stop now');
  });

  it('waits delayMs before the first part', async () => {
    const order: string[] = [];
    const p = player({ a: [{ delayMs: 50, text: 'late' }] }, { delay: async (ms) => void order.push(`waited ${ms}`) });
    const result = streamText({ model: p.modelFor({ agent: 'a', task: 't' }), prompt: 'go' });
    for await (const part of result.fullStream) if (part.type === 'text-delta') order.push(part.text);
    expect(order).toEqual(['waited 50', 'late']);
  });

  it('answers doGenerate with the same turn shape', async () => {
    const p = player({ a: [{ text: 'hi', toolCalls: [{ tool: 't', input: { q: 1 } }], usage: { inputTokens: 1, outputTokens: 2 } }] });
    const model = p.modelFor({ agent: 'a', task: 't' });
    const out = await model.doGenerate({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'go' }] }] });
    expect(out.content[0]).toEqual({ type: 'text', text: 'hi' });
    expect(out.content[1]).toMatchObject({ type: 'tool-call', toolName: 't', input: '{"q":1}' });
    expect(out.finishReason.unified).toBe('tool-calls');
    expect(out.usage.outputTokens.total).toBe(2);
  });
});
