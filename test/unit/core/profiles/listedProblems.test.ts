import { describe, expect, it } from 'vitest';
import { listedProblems } from '../../../../src/core/config/profiles/listedProblems';
import type { ProfileProblem } from '../../../../src/core/config/profiles/profileProblem';

const at = (line: number) => ({ start: { line, character: 2 }, end: { line, character: 6 } });
const file = (over: Partial<ProfileProblem>): ProfileProblem => ({
  source: '.claude/agents/a.md',
  name: 'a',
  field: 'tools',
  message: 'x',
  severity: 'information',
  code: 'tool-later',
  path: '/ws/.claude/agents/a.md',
  range: at(3),
  ...over,
});

describe('listedProblems', () => {
  it('lists errors and warnings one by one, at their place, and the notes of a file as one entry', () => {
    // b is the only file agent with an error; the other agents ("a", "c") still work.
    const working = new Map([
      ['a', { source: '.claude/agents/a.md' }],
      ['c', { source: 'user settings' }],
    ]);
    const list = listedProblems(
      [
        file({ message: '"WebFetch" is left out: later' }),
        file({ message: '"color" is ignored here', field: 'color', code: 'field-ignored', range: at(5) }),
        file({ severity: 'warning', code: 'no-usable-tools', message: 'none of these tools is available here' }),
        file({
          source: '.vscode/agents/b.md',
          path: '/ws/.vscode/agents/b.md',
          name: 'b',
          severity: 'error',
          code: 'no-description',
          message: 'has no description',
        }),
        {
          source: 'user settings',
          name: 'c',
          field: 'model',
          message: 'model "x" names no model known here',
          severity: 'information',
          code: 'model-unknown',
          setting: 'subagents.agents',
        },
      ],
      working,
    );
    expect(list).toEqual([
      {
        message: '.claude/agents/a.md, line 4 (agent "a"): none of these tools is available here.',
        severity: 'warning',
        code: 'no-usable-tools',
        location: { path: '/ws/.claude/agents/a.md', line: 4, column: 3 },
      },
      {
        message:
          '.vscode/agents/b.md, line 4 (agent "b"): has no description. "b" is left out until it is fixed. The other agents still work.',
        severity: 'error',
        code: 'no-description',
        location: { path: '/ws/.vscode/agents/b.md', line: 4, column: 3 },
      },
      {
        message: '.claude/agents/a.md (agent "a"), 2 notes: line 4: "WebFetch" is left out: later; line 6: "color" is ignored here.',
        severity: 'information',
        code: 'tool-later',
        location: { path: '/ws/.claude/agents/a.md', line: 4, column: 3 },
      },
      {
        message: 'user settings (agent "c"): model "x" names no model known here.',
        severity: 'information',
        code: 'model-unknown',
        location: { setting: 'subagents.agents' },
      },
    ]);
  });
});
