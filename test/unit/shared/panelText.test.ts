import { describe, expect, it } from 'vitest';
import { commandPrefix } from '../../../src/shared/commandPrefix';
import { editDiff } from '../../../src/shared/editDiff';
import { modelLabel } from '../../../src/shared/modelLabel';
import { agentPrefixAt, parsePromptAgent } from '../../../src/shared/promptAgent';
import { relativeTime } from '../../../src/shared/relativeTime';
import { formatDuration, formatTokens } from '../../../src/shared/usage';

// The small texts of the panel: the model's name, @agent, relative dates, durations and diffs.

describe('the model label', () => {
  it('names the demo, providers and local servers shortly', () => {
    expect(modelLabel('scripted:/home/u/demo/.vscode/demo-script.json')).toBe('Demo (scripted)');
    expect(modelLabel('scripted:test/my-script.json')).toBe('Scripted (my-script.json)');
    expect(modelLabel('openai:gpt-4.1')).toBe('gpt-4.1 (OpenAI)');
    expect(modelLabel('anthropic:claude-sonnet-4-5')).toBe('claude-sonnet-4-5 (Anthropic)');
    expect(modelLabel('vscode-lm:copilot/gpt-4o')).toBe('gpt-4o (copilot)');
    expect(modelLabel('openai-compatible:http://localhost:11434/v1#llama3.1')).toBe('llama3.1 (localhost:11434)');
    expect(modelLabel('fast')).toBe('fast');
    expect(modelLabel('')).toBe('No model');
  });
});

describe('@agent at the start of a prompt', () => {
  const agents = ['researcher', 'reviewer'];
  it('picks the agent and sends the rest', () => {
    expect(parsePromptAgent('@researcher find the totals', agents)).toEqual({ ok: true, text: 'find the totals', agent: 'researcher' });
    expect(parsePromptAgent('@Reviewer\ncheck it', agents)).toEqual({ ok: true, text: 'check it', agent: 'reviewer' });
    expect(parsePromptAgent('mail me@example.com', agents)).toEqual({ ok: true, text: 'mail me@example.com' });
  });
  it('takes an agent by the dotted name its file gave it (code.reviewer is code-reviewer, issue 39 item 12)', () => {
    expect(parsePromptAgent('@code.reviewer look at app.ts', ['code-reviewer'])).toEqual({
      ok: true,
      text: 'look at app.ts',
      agent: 'code-reviewer',
    });
    expect(parsePromptAgent('@Code_Reviewer look', ['code-reviewer'])).toEqual({ ok: true, text: 'look', agent: 'code-reviewer' });
    expect(parsePromptAgent('@code.reviewer.x look', ['code-reviewer'])).toMatchObject({ ok: false });
  });
  it('says what is wrong with an unknown name or an empty task', () => {
    expect(parsePromptAgent('@ghost do it', agents)).toEqual({
      ok: false,
      error: 'There is no agent "ghost". Agents: @researcher, @reviewer.',
    });
    expect(parsePromptAgent('@researcher', agents)).toEqual({ ok: false, error: 'Say what @researcher should do after its name.' });
  });
  it('finds the name being typed for completion', () => {
    expect(agentPrefixAt('@re', 3)).toBe('re');
    expect(agentPrefixAt('@', 1)).toBe('');
    expect(agentPrefixAt('@re x', 5)).toBeUndefined();
    expect(agentPrefixAt('hi @re', 6)).toBeUndefined();
  });
});

describe('relative dates', () => {
  const now = new Date(2026, 5, 15, 14, 0).getTime();
  it('are short and calendar-aware', () => {
    expect(relativeTime(now - 20_000, now)).toBe('just now');
    expect(relativeTime(now - 5 * 60_000, now)).toBe('5 min ago');
    expect(relativeTime(now - 3 * 3_600_000, now)).toBe('3 h ago');
    expect(relativeTime(new Date(2026, 5, 14, 23, 0).getTime(), now)).toBe('yesterday');
    expect(relativeTime(new Date(2026, 5, 11, 9, 0).getTime(), now)).toBe('4 days ago');
    expect(relativeTime(new Date(2026, 1, 3).getTime(), now)).toBe('Feb 3');
    expect(relativeTime(new Date(2025, 11, 24).getTime(), now)).toBe('Dec 24, 2025');
  });
});

describe('durations and tokens in a live line', () => {
  it('stay short', () => {
    expect([412, 2300, 42_400, 185_000].map(formatDuration)).toEqual(['0.4s', '2.3s', '42s', '3m 05s']);
    expect([120, 1234, 34_567, 1_234_567].map(formatTokens)).toEqual(['120 tok', '1.2k tok', '35k tok', '1.2M tok']);
  });
});

describe('an edit as a diff', () => {
  it('keeps shared lines as context and counts lines added and removed', () => {
    const d = editDiff('a\nb\nc', 'a\nB\nc\nd');
    expect(d.lines).toEqual([
      { kind: 'same', text: 'a' },
      { kind: 'del', text: 'b' },
      { kind: 'add', text: 'B' },
      { kind: 'same', text: 'c' },
      { kind: 'add', text: 'd' },
    ]);
    expect([d.added, d.removed, d.omitted]).toEqual([2, 1, 0]);
  });
});

describe('the prefix "Always allow" offers', () => {
  it('is the program and its sub-command, without the arguments of this call', () => {
    expect(
      ['npm test -- --watch', 'git commit -m "x"', 'ls -la', 'rm -rf build', 'cat src/a.ts', 'make', 'FOO=1 npm run x'].map(commandPrefix),
    ).toEqual(['npm test', 'git commit', 'ls', 'rm', 'cat', 'make', 'FOO=1']);
  });
});
