import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { resolveResultRefs } from '../../../../src/core/models/scriptResultRefs';

const fail = (message: string): never => {
  throw new Error(message);
};

function resultOf(toolName: string, value: unknown, type: 'json' | 'text' = 'json'): LanguageModelV4Prompt[number] {
  const output =
    type === 'json' ? { type: 'json' as const, value: value as never } : { type: 'text' as const, value: JSON.stringify(value) };
  return { role: 'tool', content: [{ type: 'tool-result', toolCallId: `c_${toolName}`, toolName, output }] };
}

describe('a scripted tool call refers to an earlier result ($fromResult)', () => {
  const prompt: LanguageModelV4Prompt = [
    { role: 'user', content: [{ type: 'text', text: 'go' }] },
    resultOf('delegate_task', [{ status: 'started', runId: 'r_first', threadId: 't_1' }]),
    resultOf('delegate_task', [{ status: 'started', runId: 'r_second', threadId: 't_2' }], 'text'),
  ];

  it('takes the latest result of the tool, or the one at an index, anywhere in the input', () => {
    const input = {
      runIds: [
        { $fromResult: { tool: 'delegate_task', field: '0.runId' } },
        { $fromResult: { tool: 'delegate_task', field: '0.runId', index: 0 } },
      ],
      timeoutMs: 5,
    };
    expect(resolveResultRefs(input, prompt, 'supervisor', fail)).toEqual({ runIds: ['r_second', 'r_first'], timeoutMs: 5 });
  });

  it('leaves everything else as it is, objects that merely have the key among others included', () => {
    const input = { command: 'echo ${HOME}', other: { $fromResult: { tool: 'x', field: 'y' }, more: 1 } };
    expect(resolveResultRefs(input, prompt, 'supervisor', fail)).toEqual(input);
  });

  it('names what is missing when the conversation has no such result or field', () => {
    expect(() => resolveResultRefs({ $fromResult: { tool: 'delegate_task', field: 'nope' } }, prompt, 'supervisor', fail)).toThrow(
      'agent "supervisor" refers to field "nope" of the latest "delegate_task" result, but its conversation has 2 such results and that one has no such field',
    );
    expect(() => resolveResultRefs({ $fromResult: { tool: 'read_file', field: 'x' } }, prompt, 'supervisor', fail)).toThrow(
      'has 0 such results',
    );
  });
});
