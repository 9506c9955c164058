import { describe, expect, it } from 'vitest';
import { approvalAction, approvalNotice } from '../../../src/shared/approvalText';

// The notification of an approval the user cannot see in the panel: one line, no repetition (issue 42 item 2).

describe('approvalNotice', () => {
  it("an edit: who, which file and its counts; the policy's reason that only names the file again is left out", () => {
    expect(
      approvalNotice({
        agent: 'fixer',
        tool: 'edit_file',
        input: { path: 'src/invoice.ts', oldText: 'a', newText: 'b' },
        reason: 'Writes src/invoice.ts.',
        preview: { added: 3, removed: 1 },
      }),
    ).toBe('Subagents: fixer wants to edit src/invoice.ts (+3 −1).');
  });

  it('a new file says so', () => {
    expect(
      approvalNotice({
        agent: 'writer',
        tool: 'write_file',
        input: { path: 'docs/new.md', content: 'x\ny\n' },
        reason: 'Writes docs/new.md.',
        preview: { added: 2, removed: 0, created: true },
      }),
    ).toBe('Subagents: writer wants to write docs/new.md (new file, +2 −0).');
  });

  it('a reason that says more is kept, on the same line', () => {
    expect(
      approvalNotice({
        agent: 'fixer',
        tool: 'edit_file',
        input: { path: '.vscode/settings.json' },
        reason: 'Protected file: .vscode/settings.json.',
        preview: { added: 1, removed: 1 },
      }),
    ).toBe('Subagents: fixer wants to edit .vscode/settings.json (+1 −1). Protected file: .vscode/settings.json.');
    expect(
      approvalNotice({
        agent: 'researcher',
        tool: 'web_fetch',
        input: { url: 'https://example.org' },
        reason: 'Fetches https://example.org (not one of your subagents.trustedDomains).',
      }),
    ).toBe('Subagents: researcher wants to use web_fetch. Fetches https://example.org (not one of your subagents.trustedDomains).');
  });

  it('a command of several lines is one line', () => {
    const notice = approvalNotice({ agent: 'ops', tool: 'run_command', input: { command: 'npm ci\nnpm test' }, reason: 'Runs a command.' });
    expect(notice).toBe('Subagents: ops wants to run `npm ci npm test`. Runs a command.');
    expect(notice).not.toContain('\n');
    expect(approvalAction({ tool: 'run_command', input: { command: 'x'.repeat(200) } })).toHaveLength(86);
  });
});
