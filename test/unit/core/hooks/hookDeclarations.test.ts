import { describe, expect, it } from 'vitest';
import { parseHooksFile } from '../../../../src/core/config/hooks/hookDeclarations';
import { compileMatcher } from '../../../../src/core/access/hooks/hookMatcher';
import { claudeToolCall } from '../../../../src/core/access/hooks/claudeToolInput';
import { hookVerdict } from '../../../../src/core/access/hooks/hookVerdict';

const parse = (value: unknown) => parseHooksFile(JSON.stringify(value), 'f.json', 'repository');
const result = (over: Partial<Parameters<typeof hookVerdict>[1]>) => ({
  exitCode: 0,
  stdout: '',
  stderr: '',
  durationMs: 1,
  timedOut: false,
  truncated: false,
  ...over,
});

describe('hook files', () => {
  it("reads Claude Code's matcher groups, VS Code's flat lists and the Copilot CLI's camelCase events with bash and timeoutSec", () => {
    const claude = parse({
      hooks: { PreToolUse: [{ matcher: 'Bash|Write', hooks: [{ type: 'command', command: './g.sh', timeout: 30 }] }] },
    });
    expect(claude).toEqual({
      hooks: [{ event: 'PreToolUse', matcher: 'Bash|Write', command: './g.sh', timeoutSec: 30, scope: 'repository', source: 'f.json' }],
      problems: [],
    });
    const vscode = parse({ hooks: { PostToolUse: [{ type: 'command', command: 'npx prettier --write .' }] } });
    expect(vscode.hooks[0]).toMatchObject({ event: 'PostToolUse', command: 'npx prettier --write .', timeoutSec: 60 });
    const copilot = parse({ version: 1, hooks: { userPromptSubmitted: [{ type: 'command', bash: './log.sh', timeoutSec: 5 }] } });
    expect(copilot.hooks[0]).toMatchObject({ event: 'UserPromptSubmit', command: './log.sh', timeoutSec: 5 });
  });

  it('says what is wrong with a bad file, an unknown event, a hook with no command', () => {
    expect(parseHooksFile('{"hooks": {', 'f.json', 'user').problems[0]).toMatch(/^f\.json:1:\d+: .*not run until it is fixed/);
    expect(parse({ hooks: { Notification: [] } }).problems[0]).toMatch(/"Notification" hooks are not run here/);
    expect(parse({ hooks: { PreTool: [] } }).problems[0]).toMatch(/"PreTool" is not a hook event/);
    expect(parse({ hooks: { Stop: [{ hooks: [{ type: 'command' }] }] } }).problems[0]).toMatch(/no "command"/);
    expect(parse({ hooks: { Stop: [{ hooks: [{ type: 'prompt', prompt: 'x' }] }] } }).problems[0]).toMatch(/only "type": "command"/);
    expect(parse({ hooks: [] }).problems[0]).toMatch(/must be an object/);
  });
});

describe('matchers', () => {
  const matches = (m: string | undefined, names: string[]) => {
    const c = compileMatcher(m);
    if ('problem' in c) throw new Error(c.problem);
    return c.match(names);
  };
  it("uses Claude Code's names and ours, exact lists and regular expressions", () => {
    const edit = claudeToolCall('edit_file', {}, '/w').names;
    expect(matches('MultiEdit', edit)).toBe(true);
    expect(matches('Edit|Write', edit)).toBe(true);
    expect(matches('edit_file', edit)).toBe(true);
    expect(matches('Bash', edit)).toBe(false);
    expect(matches('Ed', edit)).toBe(false);
    expect(matches('mcp__github__.*', ['mcp__github__create_issue'])).toBe(true);
    expect(matches(undefined, ['x']) && matches('*', ['x']) && matches('', ['x'])).toBe(true);
  });
  it('refuses patterns that could take exponential time', () => {
    for (const m of ['(a+)+$', '(a|aa)*b', '(.*a){20}', '(\\w+)*x', '(a)\\1'])
      expect(compileMatcher(m)).toEqual({ problem: expect.stringMatching(/exponential|back-reference/) });
    expect('match' in compileMatcher('Notebook.*')).toBe(true);
    expect('match' in compileMatcher('^(Edit|Write)$')).toBe(true);
  });
});

describe("Claude Code's tool input", () => {
  it('translates our fields to theirs, paths made absolute', () => {
    expect(claudeToolCall('edit_file', { path: 'a.ts', oldText: 'x', newText: 'y' }, '/w')).toEqual({
      names: ['Edit', 'MultiEdit', 'edit_file'],
      toolName: 'Edit',
      toolInput: { file_path: '/w/a.ts', old_string: 'x', new_string: 'y' },
    });
    expect(claudeToolCall('read_file', { path: 'a', startLine: 3, endLine: 5 }, '/w').toolInput).toEqual({
      file_path: '/w/a',
      offset: 3,
      limit: 3,
    });
    expect(claudeToolCall('search_text', { pattern: 'x' }, '/w').toolInput).toEqual({ pattern: 'x', path: '/w', '-i': true });
    expect(claudeToolCall('mcp__s__t', { a: 1 }, '/w')).toEqual({ names: ['mcp__s__t'], toolName: 'mcp__s__t', toolInput: { a: 1 } });
  });
});

describe('verdicts', () => {
  it('reads exit codes and JSON as Claude Code does', () => {
    expect(hookVerdict('PreToolUse', result({ exitCode: 2, stderr: 'no' }), 60)).toEqual({ decision: 'deny', reason: 'no' });
    expect(hookVerdict('Stop', result({ exitCode: 2, stderr: 'go on' }), 60)).toEqual({ decision: 'block', reason: 'go on' });
    expect(hookVerdict('PreToolUse', result({ exitCode: 1, stderr: 'oops' }), 60)).toMatchObject({
      decision: 'none',
      warning: expect.stringContaining('oops'),
    });
    expect(hookVerdict('PreToolUse', result({ stdout: '{"decision":"block","reason":"old style"}' }), 60)).toEqual({
      decision: 'deny',
      reason: 'old style',
    });
    expect(hookVerdict('PostToolUse', result({ stdout: '{"decision":"block","reason":"lint failed"}' }), 60)).toEqual({
      decision: 'block',
      reason: 'lint failed',
    });
    expect(hookVerdict('UserPromptSubmit', result({ stdout: 'today is Monday' }), 60)).toEqual({
      decision: 'none',
      additionalContext: 'today is Monday',
    });
    expect(hookVerdict('Stop', result({ stdout: '{"continue":false,"stopReason":"enough","suppressOutput":true}' }), 60)).toEqual({
      decision: 'none',
      stop: 'enough',
      suppressOutput: true,
    });
    expect(hookVerdict('PreToolUse', result({ stdout: '{not json' }), 60).warning).toMatch(/not/);
    expect(hookVerdict('PostToolUse', result({ stdout: '{"systemMessage":"formatted 3 files"}' }), 60)).toEqual({
      decision: 'none',
      userMessage: 'formatted 3 files',
    });
    expect(hookVerdict('PreToolUse', result({ exitCode: null, timedOut: true }), 5).warning).toMatch(/timeout of 5 s/);
  });
});
