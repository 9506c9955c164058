import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadWorkspaceProfiles } from '../../../../src/core/profiles/workspaceProfiles';

function workspace(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'subagents-profiles-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('loadWorkspaceProfiles', () => {
  it('reads our agent files and imports Claude Code and Copilot agents, mapping their tools', () => {
    const root = workspace({
      '.vscode/agents/tester.md': '---\ndescription: Writes tests\nmaxSteps: 7\n---\nYou write tests.\n',
      '.claude/agents/code-reviewer.md': '---\nname: code-reviewer\ndescription: Reviews code\ntools: Read, Grep, Glob, WebFetch\nmodel: sonnet\n---\nReview carefully.',
      '.github/agents/planner.agent.md': '---\ndescription: Plans work\ntools: ["codebase", "search"]\n---\nPlan.',
    });
    const set = loadWorkspaceProfiles({ root, trusted: true });
    expect(set.problems).toEqual([]);
    expect(set.profiles.get('tester')).toMatchObject({ description: 'Writes tests', maxSteps: 7, instructions: 'You write tests.', source: '.vscode/agents/tester.md' });
    expect(set.profiles.get('code-reviewer')).toMatchObject({ tools: ['read_file', 'search_text', 'find_files'], instructions: 'Review carefully.' });
    expect(set.profiles.get('code-reviewer')!.model).toBeUndefined();
    expect(set.profiles.get('planner')).toMatchObject({ description: 'Plans work', tools: ['search_text'] });
    expect(set.notes).toEqual([
      '.claude/agents/code-reviewer.md: tool "WebFetch" has no equivalent here and was left out.',
      '.claude/agents/code-reviewer.md: model "sonnet" is not a model spec here, so the parent\'s model is used.',
    ]);
    // Built-ins are there too.
    expect(set.profiles.has('general-purpose')).toBe(true);
  });

  it('merges by precedence: built-in < user < agent files < workspace settings; enabled:false switches off', () => {
    const root = workspace({ '.vscode/agents/helper.md': '---\ndescription: from the file\n---\nfile body' });
    const set = loadWorkspaceProfiles({
      root,
      trusted: true,
      userAgents: { helper: { description: 'from user settings' }, mine: { description: 'only mine' } },
      workspaceAgents: [{ source: 'workspace settings', profiles: { explore: { enabled: false }, mine: { description: 'workspace wins' } } }],
    });
    expect(set.profiles.get('helper')).toMatchObject({ description: 'from the file', source: '.vscode/agents/helper.md' });
    expect(set.profiles.get('mine')).toMatchObject({ description: 'workspace wins', source: 'workspace settings' });
    expect(set.profiles.has('explore')).toBe(false);
  });

  it('reports a broken file and a bad field with their source, and the rest still load', () => {
    const root = workspace({
      '.vscode/agents/nofront.md': 'just text',
      '.vscode/agents/badyaml.md': '---\ndescription: [unclosed\n---\n',
      '.vscode/agents/badfield.md': '---\ndescription: ok\nmaxSteps: lots\n---\n',
      '.vscode/agents/good.md': '---\ndescription: fine\n---\n',
    });
    const set = loadWorkspaceProfiles({ root, trusted: true });
    expect(set.profiles.has('good')).toBe(true);
    const bySource = Object.fromEntries(set.problems.map((p) => [p.source, p]));
    expect(bySource['.vscode/agents/nofront.md']!.message).toMatch(/no front matter/);
    expect(bySource['.vscode/agents/badyaml.md']!.message).toMatch(/not valid YAML/);
    expect(bySource['.vscode/agents/badfield.md']).toMatchObject({ name: 'badfield', field: 'maxSteps' });
  });

  it('ignores workspace agent files and settings in an untrusted workspace', () => {
    const root = workspace({ '.vscode/agents/evil.md': '---\ndescription: runs things\n---\n' });
    const set = loadWorkspaceProfiles({ root, trusted: false, userAgents: { mine: { description: 'mine' } }, workspaceAgents: [{ source: 'ws', profiles: { other: { description: 'x' } } }] });
    expect([...set.profiles.keys()].sort()).toEqual(['explore', 'general-purpose', 'mine']);
  });
});
