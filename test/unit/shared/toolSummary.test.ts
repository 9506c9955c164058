import { describe, expect, it } from 'vitest';
import type { ToolCallNode } from '../../../src/shared/runTree';
import { summarizeToolCall, summaryText, toolActivity, toolCallText } from '../../../src/shared/toolSummary';

const call = (tool: string, input: unknown, output?: unknown, extra: Partial<ToolCallNode> = {}): ToolCallNode => ({
  toolCallId: 'c',
  tool,
  input,
  state: 'done',
  ...(output === undefined ? {} : { output }),
  ...extra,
});
const text = (c: ToolCallNode) => summaryText(summarizeToolCall(c));

describe('tool summaries', () => {
  it('read like an editor: one line per tool', () => {
    expect(
      text(
        call('read_file', { path: 'src/invoice.ts' }, { path: 'src/invoice.ts', startLine: 1, endLine: 80, totalLines: 80, content: 'x' }),
      ),
    ).toBe('Read src/invoice.ts lines 1–80');
    expect(text(call('run_command', { command: 'npm test' }, { exitCode: 1, output: 'FAIL' }, { startedAt: 1000, finishedAt: 3300 }))).toBe(
      'Ran npm test · exit 1 · 2.3s',
    );
    expect(
      text(
        call('edit_file', { path: 'src/money.ts', oldText: 'a\nb\nc\n', newText: 'a\nB\nB2\nB3\nc\n' }, { path: 'src/money.ts', line: 4 }),
      ),
    ).toBe('Edited src/money.ts +3 −1');
    expect(text(call('search_text', { pattern: 'TODO' }, { matches: Array.from({ length: 12 }, (_, i) => `a.ts:${i}: TODO`) }))).toBe(
      'Searched for TODO · 12 matches',
    );
    expect(text(call('search_text', { pattern: 'x', glob: '*.md' }, { matches: ['a.md:1: x'] }))).toBe('Searched for x in *.md · 1 match');
    expect(text(call('write_file', { path: 'notes/a.md', content: 'one\ntwo\n' }, { path: 'notes/a.md', created: true, chars: 8 }))).toBe(
      'Created notes/a.md · 2 lines',
    );
    expect(text(call('find_files', { pattern: '**/*.ts' }, { files: ['a.ts', 'b.ts'] }))).toBe('Found files **/*.ts · 2 files');
    expect(text(call('list_dir', { path: 'src' }, { path: 'src', entries: ['a', 'b', 'c'] }))).toBe('Listed src · 3 entries');
    expect(text(call('delegate_task', { task: 't', agents: ['researcher', 'reviewer'] }, []))).toBe('Delegated to researcher, reviewer');
    expect(text(call('delegate_task', { task: 't', agents: ['scout'], background: true }, [{ status: 'started' }]))).toBe(
      'Started scout in the background',
    );
    expect(
      text(
        call(
          'delegate_task',
          {
            tasks: [
              { agent: 'a', task: 'x' },
              { agent: 'b', task: 'y' },
            ],
          },
          [],
        ),
      ),
    ).toBe('Delegated to a, b');
    expect(text(call('background_runs', { action: 'wait', runIds: ['r1', 'r2'] }, []))).toBe('Waited for 2 background subagents');
    expect(text(call('background_runs', { action: 'cancel', runIds: ['r1'] }, []))).toBe('Stopped 1 background subagent');
    expect(text(call('background_runs', { action: 'message', runIds: ['r1'], message: 'm' }, []))).toBe(
      'Sent a message to 1 background subagent',
    );
    // A thread of an earlier version still reads as it did.
    expect(text(call('subagent_start', { task: 't', agent: 'scout' }, { status: 'started' }))).toBe('Started scout in the background');
  });

  it('say a loaded skill by its name, not as the raw tool name (issue 42 item 7)', () => {
    const loaded = call('load_skill', { name: 'release-notes' }, { name: 'release-notes', instructions: 'x', files: [] });
    expect(summarizeToolCall(loaded)).toEqual(['Loaded the skill ', { code: 'release-notes' }]);
    expect(text(call('load_skill', { name: 'release-notes', file: 'references/style.md' }, { content: 'x' }))).toBe(
      'Read references/style.md of the skill release-notes',
    );
    expect(text(call('load_skill', { name: 'nope' }, { error: 'There is no skill "nope". The skills are: a.' }, { state: 'error' }))).toBe(
      'Loaded the skill nope · failed: There is no skill "nope". The skills are: a.',
    );
    expect(toolActivity(call('load_skill', { name: 'release-notes' }))).toBe('loading the skill release-notes');
    expect(text(call('load_skill', { name: 'release-notes' }, undefined, { state: 'running' }))).toBe('Loading the skill release-notes…');
  });

  it('make the file a link part, at the line the call is about, and the command a code part', () => {
    expect(
      summarizeToolCall(
        call(
          'read_file',
          { path: 'src/invoice.ts', startLine: 40 },
          { path: 'src/invoice.ts', startLine: 40, endLine: 60, totalLines: 90, content: '' },
        ),
      ),
    ).toEqual(['Read ', { file: { path: 'src/invoice.ts', line: 40 } }, ' lines 40–60']);
    expect(
      summarizeToolCall(call('edit_file', { path: 'src/money.ts', oldText: 'a', newText: 'b' }, { path: 'src/money.ts', line: 12 }))[1],
    ).toEqual({ file: { path: 'src/money.ts', line: 12 } });
    expect(summarizeToolCall(call('run_command', { command: 'npm test' }, { exitCode: 0, output: '' }))[1]).toEqual({ code: 'npm test' });
  });

  it('say a failure, a denial and a call still running', () => {
    expect(text(call('read_file', { path: 'src/nope.ts' }, { error: 'There is no file src/nope.ts.' }, { state: 'error' }))).toBe(
      'Read src/nope.ts · failed: There is no file src/nope.ts.',
    );
    expect(
      text(
        call('run_command', { command: 'rm -rf build' }, 'The user denied this.', {
          state: 'error',
          approval: { approvalId: 'a', decision: 'denied' },
        }),
      ),
    ).toBe('Ran rm -rf build · denied by you');
    expect(text(call('read_file', { path: 'src/a.ts' }, undefined, { state: 'running' }))).toBe('Reading src/a.ts…');
    expect(text(call('run_command', { command: 'npm publish' }, undefined, { state: 'running', approval: { approvalId: 'a' } }))).toBe(
      'Running npm publish · waiting for your approval',
    );
  });

  it('as a printed line (Show Run Tree, the CLI, the export) also say an approval given', () => {
    const edit = call('edit_file', { path: 'a.ts', oldText: 'a', newText: 'b' }, { path: 'a.ts' });
    expect(toolCallText(edit)).toBe('Edited a.ts +1 −1');
    expect(toolCallText({ ...edit, approval: { approvalId: 'a', decision: 'approved' } })).toBe('Edited a.ts +1 −1 · approved');
    expect(toolCallText({ ...edit, approval: { approvalId: 'a', decision: 'denied', cancelled: 'stopped' } })).toBe(
      'Edited a.ts +1 −1 · cancelled (stopped)',
    );
  });

  it("fall back to the tool name and its telling field for tools they do not know (an MCP server's)", () => {
    expect(text(call('github_search', { query: 'is:open label:bug', page: 2 }, { items: [] }))).toBe('github_search is:open label:bug');
    expect(text(call('mystery', { a: 1 }, 'ok'))).toBe('mystery');
  });

  it('give the activity of a running call in the present, for the live line', () => {
    expect(toolActivity(call('read_file', { path: 'src/invoice.ts' }))).toBe('reading src/invoice.ts');
    expect(toolActivity(call('read_file', { path: 'src/invoice.ts', startLine: 1, endLine: 40 }))).toBe(
      'reading src/invoice.ts lines 1–40',
    );
    expect(toolActivity(call('run_command', { command: 'npm   test' }))).toBe('running npm test');
    expect(toolActivity(call('github_search', { query: 'bug' }))).toBe('calling github_search bug');
  });

  it("read an external agent's tool call (acp:<kind>) by its own title, waiting or done", () => {
    const input = { title: 'Run git push --force', rawInput: { command: 'git push --force' } };
    const waiting = call('acp:execute', input, undefined, { state: 'running', approval: { approvalId: 'a' } });
    expect(text(waiting)).toBe('Run git push --force · waiting for your approval');
    expect(toolActivity(waiting)).toBe('Run git push --force');
    expect(text(call('acp:execute', input, { content: [] }))).toBe('Run git push --force');
    // No title: the tool name, as for any tool the panel does not know.
    expect(text(call('acp:other', {}, undefined, { state: 'running' }))).toBe('Calling acp:other…');
  });
});
