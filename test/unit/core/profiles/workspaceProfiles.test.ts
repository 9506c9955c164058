import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeProfileProblem } from '../../../../src/core/config/profiles/describeProfileProblem';
import { loadWorkspaceProfiles } from '../../../../src/core/config/profiles/workspaceProfiles';
import { DEFAULT_SETTINGS } from '../../../../src/core/config/settings/engineSettings';

const made: string[] = [];
afterAll(() => {
  for (const root of made) rmSync(root, { recursive: true, force: true });
});

function workspace(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'subagents-profiles-'));
  made.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const NO_KEYS = { hasKey: () => false, keyHint: () => 'set ANTHROPIC_API_KEY' };
const ANTHROPIC = { hasKey: (p: string) => p === 'anthropic', keyHint: () => '' };

describe('loadWorkspaceProfiles', () => {
  it('reads our agent files and imports Claude Code and Copilot agents, mapping their tools and models', () => {
    const root = workspace({
      '.vscode/agents/tester.md': '---\ndescription: Writes tests\nmaxSteps: 7\n---\nYou write tests.\n',
      '.claude/agents/code-reviewer.md':
        '---\nname: code-reviewer\ndescription: Reviews code\ntools: Read, Grep, Glob, WebSearch\nmodel: sonnet\n---\nReview carefully.',
      '.github/agents/planner.agent.md': "---\nname: 'The Planner'\ndescription: Plans work\ntools: ['codebase', 'search']\n---\nPlan.",
    });
    const set = loadWorkspaceProfiles({ root, trusted: true, models: ANTHROPIC });
    expect(set.profiles.get('tester')).toMatchObject({
      description: 'Writes tests',
      maxSteps: 7,
      instructions: 'You write tests.',
      source: '.vscode/agents/tester.md',
    });
    expect(set.profiles.get('code-reviewer')).toMatchObject({
      tools: ['read_file', 'search_text', 'find_files'],
      instructions: 'Review carefully.',
      model: 'anthropic:claude-sonnet-5-5',
    });
    expect(set.profiles.get('planner')).toMatchObject({
      description: 'Plans work',
      displayName: 'The Planner',
      tools: ['search_text', 'find_files', 'read_file', 'list_dir'],
    });
    expect(set.problems.map(describeProfileProblem)).toEqual([
      '.claude/agents/code-reviewer.md, line 4 (agent "code-reviewer"): "WebSearch" is left out: web search comes with a later version; the agent works without it.',
      '.github/agents/planner.agent.md, line 4 (agent "planner"): "codebase" is mapped to search_text, find_files, read_file: text and file-name search, and reading the files found; there is no semantic (embedding) search here.',
    ]);
    expect(set.problems.every((p) => p.severity === 'information' && p.path?.startsWith(root))).toBe(true);
    expect(set.profiles.has('general-purpose')).toBe(true);
  });

  it("lets an agent whose model cannot be used here inherit its parent's, with a note at the model line", () => {
    const root = workspace({ '.claude/agents/a.md': '---\nname: a\ndescription: A\nmodel: haiku\n---\n' });
    const set = loadWorkspaceProfiles({ root, trusted: true, models: NO_KEYS });
    expect(set.profiles.get('a')!.model).toBeUndefined();
    expect(set.profiles.get('a')!.requestedModel).toBe('haiku');
    expect(set.problems).toEqual([
      expect.objectContaining({
        code: 'model-unavailable',
        severity: 'information',
        range: expect.objectContaining({ start: { line: 3, character: 7 } }),
      }),
    ]);
  });

  it('merges by precedence: built-in < user < agent files < workspace settings; enabled:false switches off; each replacement is a note', () => {
    const root = workspace({
      '.claude/agents/helper.md': '---\nname: helper\ndescription: from claude\n---\n',
      '.vscode/agents/helper.md': '---\ndescription: from the file\n---\nfile body',
    });
    const set = loadWorkspaceProfiles({
      root,
      trusted: true,
      userAgents: { helper: { description: 'from user settings' }, mine: { description: 'only mine' } },
      workspaceAgents: [
        { source: 'workspace settings', profiles: { explore: { enabled: false }, mine: { description: 'workspace wins' } } },
      ],
    });
    expect(set.profiles.get('helper')).toMatchObject({ description: 'from the file', source: '.vscode/agents/helper.md' });
    expect(set.profiles.get('mine')).toMatchObject({ description: 'workspace wins', source: 'workspace settings' });
    expect(set.profiles.has('explore')).toBe(false);
    expect(set.problems.filter((p) => p.code === 'replaces').map(describeProfileProblem)).toEqual([
      '.claude/agents/helper.md, line 2 (agent "helper"): replaces "helper" from user settings.',
      '.vscode/agents/helper.md, line 1 (agent "helper"): replaces "helper" from .claude/agents/helper.md.',
      'workspace settings (agent "mine"): replaces "mine" from user settings.',
    ]);
  });

  it('reports two files of one folder with the same id as a problem naming both; the first in sort order wins', () => {
    const root = workspace({
      '.claude/agents/b-reviewer.md': '---\nname: reviewer\ndescription: second\n---\n',
      '.claude/agents/a-reviewer.md': '---\nname: reviewer\ndescription: first\n---\n',
    });
    const set = loadWorkspaceProfiles({ root, trusted: true });
    expect(set.profiles.get('reviewer')).toMatchObject({ description: 'first', source: '.claude/agents/a-reviewer.md' });
    const dup = set.problems.find((p) => p.code === 'duplicate')!;
    expect(dup).toMatchObject({ severity: 'error', source: '.claude/agents/b-reviewer.md', fixes: [{ newText: 'reviewer-2' }] });
    expect(dup.message).toMatch(/as \.claude\/agents\/a-reviewer\.md does; that file comes first in sort order and wins/);
  });

  it('reads ~/.claude/agents and ~/.copilot/agents below user settings, each switchable off, also when the workspace is untrusted', () => {
    const home = workspace({
      '.claude/agents/shared.md': '---\nname: shared\ndescription: from claude home\n---\n',
      '.claude/agents/solo.md': '---\nname: solo\ndescription: only in claude home\n---\n',
      '.copilot/agents/shared.agent.md': '---\ndescription: from copilot home\n---\n',
    });
    const root = workspace({ '.claude/agents/shared.md': '---\nname: shared\ndescription: from the workspace\n---\n' });
    const all = loadWorkspaceProfiles({ root, home, trusted: true });
    expect(all.profiles.get('shared')).toMatchObject({ description: 'from the workspace' });
    expect(all.profiles.get('solo')).toMatchObject({ source: '~/.claude/agents/solo.md' });
    const untrusted = loadWorkspaceProfiles({ root, home, trusted: false });
    expect(untrusted.profiles.get('shared')).toMatchObject({
      description: 'from copilot home',
      source: '~/.copilot/agents/shared.agent.md',
    });
    const claudeOff = loadWorkspaceProfiles({
      root,
      home,
      trusted: false,
      settings: { ...DEFAULT_SETTINGS, userAgentFolders: { claude: false, copilot: true } },
    });
    expect(claudeOff.profiles.has('solo')).toBe(false);
    expect(claudeOff.profiles.has('shared')).toBe(true);
  });

  it('resolves "agents" by display name, and warns about names of no agent and about circles', () => {
    const root = workspace({
      '.github/agents/rug.agent.md': "---\ndescription: Orchestrates\nagents: ['SWE', 'Ghost']\n---\n",
      '.github/agents/swe-subagent.agent.md': "---\nname: 'SWE'\ndescription: Codes\nagents: ['rug']\n---\n",
    });
    const set = loadWorkspaceProfiles({ root, trusted: true });
    expect(set.profiles.get('rug')!.agents).toEqual(['swe-subagent']);
    expect(set.problems.map((p) => [p.code, p.name, p.range?.start.line])).toEqual([
      ['agent-missing', 'rug', 2],
      ['delegation-cycle', 'rug', 2],
      ['delegation-cycle', 'swe-subagent', 3],
    ]);
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
    // The YAML error, and what else can be read of the file (its description is the broken value).
    expect(set.problems.filter((p) => p.source === '.vscode/agents/badyaml.md').map((p) => p.code)).toEqual(['bad-yaml', 'no-description']);
    expect(bySource['.vscode/agents/badfield.md']).toMatchObject({
      name: 'badfield',
      field: 'maxSteps',
      message: '"maxSteps" must be a number',
    });
  });

  it('reads AGENTS.md, CLAUDE.md and .github/copilot-instructions.md, each switchable off, none when untrusted', () => {
    const root = workspace({ 'AGENTS.md': 'Use pnpm.\n', 'CLAUDE.md': 'Be brief.', '.github/copilot-instructions.md': 'Tabs.' });
    expect(loadWorkspaceProfiles({ root, trusted: true }).projectInstructions!.map((i) => [i.name, i.text])).toEqual([
      ['AGENTS.md', 'Use pnpm.'],
      ['CLAUDE.md', 'Be brief.'],
      ['.github/copilot-instructions.md', 'Tabs.'],
    ]);
    const settings = {
      ...DEFAULT_SETTINGS,
      projectInstructions: { 'AGENTS.md': true, 'CLAUDE.md': false, '.github/copilot-instructions.md': true },
    };
    expect(loadWorkspaceProfiles({ root, trusted: true, settings }).projectInstructions!.map((i) => i.name)).toEqual([
      'AGENTS.md',
      '.github/copilot-instructions.md',
    ]);
    expect(loadWorkspaceProfiles({ root, trusted: false }).projectInstructions).toEqual([]);
  });

  it('leaves out an instruction file that links outside the workspace, or is too large, with a warning', () => {
    const outside = workspace({ 'secret.txt': 'AWS_SECRET=abc' });
    const root = workspace({ 'CLAUDE.md': 'x'.repeat(70 * 1024) });
    symlinkSync(join(outside, 'secret.txt'), join(root, 'AGENTS.md'));
    const set = loadWorkspaceProfiles({ root, trusted: true });
    expect(set.projectInstructions).toEqual([]);
    expect(set.problems.map((p) => [p.source, p.severity, p.message])).toEqual([
      ['AGENTS.md', 'warning', expect.stringMatching(/^is a link to a file outside the workspace/)],
      ['CLAUDE.md', 'warning', expect.stringMatching(/^is 70 KB, more than the 64 KB that join every agent's prompt/)],
    ]);
  });

  it('ignores workspace agent files and settings in an untrusted workspace', () => {
    const root = workspace({ '.vscode/agents/evil.md': '---\ndescription: runs things\n---\n' });
    const set = loadWorkspaceProfiles({
      root,
      trusted: false,
      userAgents: { mine: { description: 'mine' } },
      workspaceAgents: [{ source: 'ws', profiles: { other: { description: 'x' } } }],
    });
    expect([...set.profiles.keys()].sort()).toEqual(['explore', 'general-purpose', 'mine']);
  });
});
