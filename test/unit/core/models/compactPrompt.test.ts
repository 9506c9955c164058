import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { compactPrompt } from '../../../../src/core/models/compactPrompt';

const big = (tag: string) => `${tag}:${'y'.repeat(4_000)}`;
const user = (text: string) => ({ role: 'user' as const, content: [{ type: 'text' as const, text }] });
const call = (id: string) => ({
  role: 'assistant' as const,
  content: [{ type: 'tool-call' as const, toolCallId: id, toolName: 'read_file', input: { path: id } }],
});
const result = (id: string, value: string) => ({
  role: 'tool' as const,
  content: [{ type: 'tool-result' as const, toolCallId: id, toolName: 'read_file', output: { type: 'text' as const, value } }],
});

/** Every tool call id with a result, and every result id with a call, in order. */
function pairs(prompt: LanguageModelV4Prompt) {
  const calls: string[] = [];
  const results: string[] = [];
  for (const m of prompt) {
    if (m.role === 'system') continue;
    for (const p of m.content) {
      if (p.type === 'tool-call') calls.push(p.toolCallId);
      if (p.type === 'tool-result') results.push(p.toolCallId);
    }
  }
  return { calls, results };
}

describe('compactPrompt', () => {
  it('shortens the oldest tool outputs first and stops once the prompt is half its size', () => {
    const prompt: LanguageModelV4Prompt = [
      { role: 'system', content: 'be brief' },
      user('go'),
      call('a'),
      result('a', big('A')),
      call('b'),
      result('b', big('B')),
      call('c'),
      result('c', big('C')),
    ];
    const out = compactPrompt(prompt);
    expect(out.shortened).toBe(2);
    expect(out.dropped).toBe(0);
    expect(out.after).toBeLessThanOrEqual(out.before / 2);
    const values = out.prompt.flatMap((m) =>
      m.role === 'tool' ? m.content.flatMap((p) => (p.type === 'tool-result' && p.output.type === 'text' ? [p.output.value] : [])) : [],
    );
    expect(values[0]).toMatch(/^\[Output shortened to fit the model's context window; it began: A:y{198}…\]$/);
    expect(values[1]).toMatch(/^\[Output shortened/);
    expect(values[2]).toBe(big('C'));
    expect(pairs(out.prompt)).toEqual({ calls: ['a', 'b', 'c'], results: ['a', 'b', 'c'] });
    // The input is left as it was.
    expect(JSON.stringify(prompt)).toContain(big('A'));
  });

  it('then drops whole earlier exchanges, never the system prompt or the last question', () => {
    const prompt: LanguageModelV4Prompt = [
      { role: 'system', content: 'be brief' },
      user(big('old question')),
      call('a'),
      result('a', 'short'),
      { role: 'assistant', content: [{ type: 'text', text: big('old answer') }] },
      user('new question'),
    ];
    const out = compactPrompt(prompt);
    expect(out.dropped).toBe(1);
    expect(out.prompt).toEqual([{ role: 'system', content: 'be brief' }, user('new question')]);
  });

  it('reports that nothing could be done when there is nothing to shorten', () => {
    const out = compactPrompt([user(big('only a question'))]);
    expect(out.shortened + out.dropped).toBe(0);
  });
});
