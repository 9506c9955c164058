import { describe, expect, it } from 'vitest';
import { jsonForTerminal, terminalSafe } from '../../../src/cli/terminalText';

describe('terminalSafe', () => {
  it('takes out OSC, string sequences, CSI, C1 and other controls, and keeps text, newlines and tabs', () => {
    const cases: [string, string][] = [
      ['a\u001b]0;title\u0007b', 'ab'],
      ['a\u001b]52;c;Zm9v\u001b\\b', 'ab'],
      ['a\u001b[31;1mred\u001b[0m b', 'ared b'],
      ['a\u009b2Jb', 'ab'],
      ['a\u009d8;;http://x\u009cb', 'ab'],
      ['a\u001bPq#0;2;0;0;0\u001b\\b', 'ab'],
      ['a\u001bcb\u001b7', 'ab'],
      ['line 1\n\tline 2\r\n\u0007\b\u007f', 'line 1\n\tline 2\n'],
      ['unterminated \u001b]0;rest of the chunk', 'unterminated '],
      ['plain text, ünïcödé ✓', 'plain text, ünïcödé ✓'],
    ];
    for (const [input, expected] of cases) expect(terminalSafe(input), JSON.stringify(input)).toBe(expected);
  });
});

describe('bidirectional controls and JSON (issue 40 item 6)', () => {
  it('takes out bidi overrides and isolates, which make text show in another order than it has', () => {
    expect(terminalSafe('access\u202e}gnirts\u2066 ok\u2069\u200f\u061c')).toBe('access}gnirts ok');
  });

  it('escapes in JSON what JSON.stringify leaves raw, and the JSON reads back as the same text', () => {
    const value = { d: 'a\u001b]52;c;eA==\u0007b\u009b2J\u202eX\u2028' };
    const line = jsonForTerminal(value);
    expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2028]/);
    expect(JSON.parse(line)).toEqual(value);
  });
});
