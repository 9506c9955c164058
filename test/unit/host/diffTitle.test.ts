import { describe, expect, it } from 'vitest';
import { diffTitle } from '../../../src/host/panel/diffTitle';

// The diff editor's tab names the file once and says what the diff is (issue 42, item 6).
describe('the diff editor title', () => {
  it('names the file by its name, once, and what the diff shows', () => {
    expect(diffTitle('src/invoice.ts', { kind: 'proposed edit' })).toBe('invoice.ts (proposed edit)');
    expect(diffTitle('src/invoice.ts', { kind: 'run', agent: 'fixer', changedSince: false })).toBe('invoice.ts (changes of fixer)');
    expect(diffTitle('README.md', { kind: 'run', agent: 'supervisor', changedSince: false })).toBe('README.md (changes of supervisor)');
  });

  it('says when the file was changed since, so the right side is what the run left', () => {
    expect(diffTitle('a/b/c.txt', { kind: 'run', agent: 'fixer', changedSince: true })).toBe(
      'c.txt (changes of fixer, as it left it: changed since)',
    );
  });

  it('keeps a title one line whatever the agent is named, and never an empty name', () => {
    expect(diffTitle('src\\win.ts', { kind: 'proposed edit' })).toBe('win.ts (proposed edit)');
    expect(diffTitle('x.ts', { kind: 'run', agent: 'two\nlines', changedSince: false })).toBe('x.ts (changes of two lines)');
    expect(diffTitle('x.ts', { kind: 'run', agent: '', changedSince: false })).toBe('x.ts (changes of a run)');
  });
});
