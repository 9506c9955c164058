import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadWorkspaceProfiles } from '../../../src/core/config/profiles/workspaceProfiles';
import { readEngineSettings, settingsLayerFromJson } from '../../../src/core/config/settings/readEngineSettings';
import { configProblems } from '../../../src/host/panel/configProblems';

// Problems as the panel shows them: plain sentences from the core, and the place to fix each
// (settings file at the key, agent file at the field), read from real files in a temp workspace.

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

function workspace(): { root: string; settingsFile: string; settings: Record<string, unknown> } {
  const root = mkdtempSync(join(tmpdir(), 'subagents-problems-'));
  roots.push(root);
  mkdirSync(join(root, '.vscode', 'agents'), { recursive: true });
  const settingsFile = join(root, '.vscode', 'settings.json');
  const text = `{
  // comments are fine here
  "editor.tabSize": 2,
  "subagents.maxDepth": 9,
  "subagents.agents": {
    "reviewer": {
      "instructions": "Review the change."
    },
    "tester": { "description": "Runs tests", "maxSteps": 0 }
  }
}
`;
  writeFileSync(settingsFile, text);
  writeFileSync(join(root, '.vscode', 'agents', 'writer.md'), '---\nname: writer\ndescription: Writes docs\nmaxSteps: lots\n---\nWrite.\n');
  writeFileSync(join(root, '.vscode', 'agents', 'broken.md'), 'no front matter at all\n');
  return {
    root,
    settingsFile,
    settings: {
      'subagents.maxDepth': 9,
      'subagents.agents': { reviewer: { instructions: 'Review the change.' }, tester: { description: 'Runs tests', maxSteps: 0 } },
    },
  };
}

describe('configProblems', () => {
  it('says each problem in a sentence and links the settings file or agent file at the line', () => {
    const ws = workspace();
    const label = '.vscode/settings.json';
    const settings = readEngineSettings([settingsLayerFromJson(ws.settings, 'workspace', label)], { trusted: true });
    const profiles = loadWorkspaceProfiles({
      root: ws.root,
      trusted: true,
      workspaceAgents: [{ source: label, profiles: ws.settings['subagents.agents'] }],
    });
    const problems = configProblems({
      settingProblems: settings.problems,
      profileProblems: profiles.problems,
      profiles: profiles.profiles,
      places: [{ label: 'user settings' }, { label, path: ws.settingsFile }],
    });
    const byText = (re: RegExp) => problems.find((p) => re.test(p.message));

    expect(byText(/maxDepth/)).toEqual({
      message: expect.stringMatching(/^The setting "subagents.maxDepth" in .vscode\/settings.json is invalid/),
      severity: 'error',
      location: { path: ws.settingsFile, line: 4, setting: 'subagents.maxDepth' },
    });
    expect(byText(/"reviewer"/)).toEqual({
      message:
        '.vscode/settings.json (agent "reviewer"): has no description: add one that says what this agent is for (the supervisor reads it). "reviewer" is left out until it is fixed. The other agents still work.',
      code: 'no-description',
      severity: 'error',
      location: { path: ws.settingsFile, line: 6, setting: 'subagents.agents' },
    });
    expect(byText(/"tester"/)?.location).toEqual({ path: ws.settingsFile, line: 9, setting: 'subagents.agents' });
    expect(byText(/"writer"/)).toEqual({
      message: expect.stringMatching(
        /^\.vscode\/agents\/writer.md, line 4 \(agent "writer"\): "maxSteps" .+\. "writer" is left out until it is fixed\. The other agents still work\.$/,
      ),
      severity: 'error',
      code: 'bad-value',
      location: { path: join(ws.root, '.vscode', 'agents', 'writer.md'), line: 4, column: expect.any(Number) },
    });
    expect(byText(/broken/)).toEqual({
      message: expect.stringMatching(
        /^\.vscode\/agents\/broken.md, line 1 \(agent "broken"\): has no front matter: .+ The file is left out until it is fixed\. The other agents still work\.$/,
      ),
      severity: 'error',
      code: 'no-front-matter',
      location: { path: join(ws.root, '.vscode', 'agents', 'broken.md'), line: 1, column: 1 },
    });
    // No internal wording: no "field", no zod paths in brackets, no raw zod dumps.
    for (const p of problems) expect(p.message).not.toMatch(/field "|\[object|Invalid input/);
  });

  it('a workspace setting that would raise trust is a warning at its key: it works, only not as the workspace wrote it', () => {
    const ws = workspace();
    const label = '.vscode/settings.json';
    writeFileSync(ws.settingsFile, '{\n  "subagents.approval": "trust"\n}\n');
    const settings = readEngineSettings([settingsLayerFromJson({ 'subagents.approval': 'trust' }, 'workspace', label)], { trusted: true });
    const problems = configProblems({
      settingProblems: settings.problems,
      profileProblems: [],
      profiles: new Map(),
      places: [{ label, path: ws.settingsFile }],
    });
    expect(settings.settings.approval).toBe('ask');
    expect(problems).toEqual([
      {
        message: expect.stringMatching(
          /^The setting "subagents.approval" in .vscode\/settings.json is ignored: .* only your user settings may set it/,
        ),
        severity: 'warning',
        location: { path: ws.settingsFile, line: 2, setting: 'subagents.approval' },
      },
    ]);
  });

  it('says "the other agents still work" only when some do, and names a lower definition that stands in', () => {
    const alone = configProblems({
      settingProblems: [],
      profileProblems: [
        {
          source: 'user settings',
          name: 'solo',
          field: 'description',
          message: 'has no description: add one that says what this agent is for',
          severity: 'error',
          code: 'no-description',
        },
      ],
      profiles: new Map(),
      places: [{ label: 'user settings' }],
    });
    expect(alone).toEqual([
      {
        message:
          'user settings (agent "solo"): has no description: add one that says what this agent is for. "solo" is left out until it is fixed. No other agent is available either.',
        severity: 'error',
        code: 'no-description',
        location: { setting: 'subagents.agents' },
      },
    ]);
    const shadowed = configProblems({
      settingProblems: [],
      profileProblems: [
        {
          source: 'user settings',
          name: 'explore',
          field: 'description',
          message: 'must say what this agent is for',
          severity: 'error',
          code: 'bad-value',
        },
      ],
      profiles: new Map([['explore', { source: 'built-in' }]]),
      places: [{ label: 'user settings' }],
    });
    expect(shadowed[0]!.message).toBe(
      'user settings (agent "explore"), "description": must say what this agent is for. Until it is fixed, the "explore" of the built-ins is used instead. No other agent is available either.',
    );
  });
});
