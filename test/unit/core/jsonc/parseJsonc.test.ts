import { describe, expect, it } from 'vitest';
import { parseJsonc } from '../../../../src/core/platform/jsonc/parseJsonc';

const value = (text: string, jsonc = false) => {
  const result = parseJsonc(text, { jsonc });
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
};
const failure = (text: string, jsonc = false) => {
  const result = parseJsonc(text, { jsonc });
  if (result.ok) throw new Error('parsed');
  return result.error;
};

describe('parseJsonc', () => {
  it('agrees with JSON.parse on valid JSON', () => {
    const samples = [
      '{}',
      '[]',
      '0',
      '-1.5e+3',
      '"a\\u00e9\\n\\"b"',
      'true',
      'null',
      ' { "a" : [1, 2, {"b": [] }], "c": "d", "e": false, "f": null, "g": -0.25 } ',
      JSON.stringify({ agents: { a: [{ text: 'x\ty', toolCalls: [{ tool: 't', input: { n: 1e21 } }] }] } }),
    ];
    for (const s of samples) expect(value(s)).toEqual(JSON.parse(s));
  });

  it('keeps "__proto__" as data, as JSON.parse does', () => {
    const parsed = value('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.keys(parsed)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reads comments and trailing commas only in JSONC mode', () => {
    const text = '{\n  // the model\n  "subagents.model": "scripted:a.json", /* inline */\n  "list": [1, 2,],\n}\n';
    expect(value(text, true)).toEqual({ 'subagents.model': 'scripted:a.json', list: [1, 2] });
    expect(failure(text)).toMatchObject({ line: 2, column: 3, message: 'comments are not allowed in JSON' });
    expect(failure('{"a": [1,]}')).toMatchObject({ line: 1, column: 10, message: expect.stringMatching(/no trailing comma/) });
  });

  it('says where it failed', () => {
    expect(failure('{\n  "a": 1\n  "b": 2\n}')).toMatchObject({ line: 3, column: 3, message: 'expected "," before the next value' });
    expect(failure('{"a": }')).toMatchObject({ line: 1, column: 7, message: 'expected a value' });
    expect(failure('{"a": "unclosed')).toMatchObject({ line: 1, column: 7 });
    expect(failure('[1] x')).toMatchObject({ column: 5, message: 'an unexpected character' });
    expect(failure('')).toMatchObject({ message: 'expected a value, found the end of the text' });
    expect(failure('{} /* open', true)).toMatchObject({ message: 'a /* comment is never closed' });
    expect(failure('['.repeat(100_000))).toMatchObject({ message: 'the JSON is nested too deeply' });
  });
});
