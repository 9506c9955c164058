import { describe, expect, it } from 'vitest';
import { terminalSafe } from '../../../src/cli/terminalText';

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
