import { describe, expect, it } from 'vitest';
import { agentPlaces } from '../../../src/host/agentFiles/agentPlaces';

// "Configure Agents" offers where agents are defined: each agent file, the workspace's and the
// user's `subagents.agents` (the workspace's at its line), and a new agent file in .vscode/agents/.

describe('agentPlaces', () => {
  it('lists the agent files, the settings at their key and a new file', () => {
    const places = agentPlaces({
      root: '/ws',
      workspaceSettings: { path: '/ws/.vscode/settings.json', label: '.vscode/settings.json', line: 4 },
      agentFiles: [{ rel: '.vscode/agents/fixer.md', path: '/ws/.vscode/agents/fixer.md' }],
    });
    expect(places.map((p) => [p.place, p.label])).toEqual([
      ['file', '$(file) .vscode/agents/fixer.md'],
      ['new', '$(new-file) New agent file in .vscode/agents/…'],
      ['settings', '$(settings) "subagents.agents" in .vscode/settings.json'],
      ['settings', '$(account) "subagents.agents" in your user settings'],
    ]);
    expect(places[2]).toMatchObject({ scope: 'workspace', path: '/ws/.vscode/settings.json', line: 4 });
  });

  it('offers to create .vscode/agents/ where there is none, and only user settings without a folder', () => {
    const fresh = agentPlaces({ root: '/ws', agentFiles: [] });
    expect(fresh.find((p) => p.place === 'new')?.detail).toMatch(/^Creates \.vscode\/agents\//);
    expect(fresh.find((p) => p.place === 'settings' && p.scope === 'workspace')?.detail).toBe(
      'Not set there yet: opens the workspace settings',
    );
    expect(agentPlaces({ root: undefined, agentFiles: [] }).map((p) => p.place)).toEqual(['settings']);
  });
});
