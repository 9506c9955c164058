import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { visit } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import { OUR_TOOLS } from '../../../../src/core/config/agentFiles/toolNames';
import { agentTemplate, importTarget } from '../../../../src/core/config/agentFiles/agentTemplate';
import { validateAgentFile } from '../../../../src/core/config/agentFiles/validateAgentFile';
import { ENGINE_SETTING_FIELDS } from '../../../../src/core/config/settings/readEngineSettings';
import { profileInputSchema } from '../../../../src/core/config/profiles/profile';

interface Schema {
  properties?: Record<string, Schema & { markdownDescription?: string; description?: string }>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  anyOf?: Schema[];
  enum?: string[];
  propertyNames?: { pattern?: string };
  markdownDescription?: string;
}

const manifestText = readFileSync(join(__dirname, '../../../../package.json'), 'utf8');
const manifest = JSON.parse(manifestText) as { contributes: { configuration: { properties: Record<string, Schema> } } };
const settings = manifest.contributes.configuration.properties;

describe('the settings schema in package.json', () => {
  it('describes every field of a profile, refuses others, and offers our tool names', () => {
    const profile = settings['subagents.agents']!.additionalProperties as Schema;
    expect(Object.keys(profile.properties!).sort()).toEqual(Object.keys(profileInputSchema.shape).sort());
    for (const [name, field] of Object.entries(profile.properties!))
      expect(field.markdownDescription ?? field.description, name).toBeTruthy();
    expect(profile.additionalProperties).toBe(false);
    expect(settings['subagents.agents']!.propertyNames!.pattern).toBe('^[a-z][a-z0-9-]{0,63}$');
    expect(profile.properties!['tools']!.items!.anyOf![0]!.enum).toEqual([...OUR_TOOLS]);
  });

  it('declares every setting the engine reads, with a description', () => {
    for (const field of ENGINE_SETTING_FIELDS) {
      expect(settings[`subagents.${field}`], field).toBeDefined();
      expect(settings[`subagents.${field}`]!.markdownDescription, field).toBeTruthy();
    }
  });
});

describe('the agent-file commands', () => {
  it('write a new agent file that has no problem', () => {
    const result = validateAgentFile(agentTemplate('reviewer'), {
      path: '/ws/.vscode/agents/reviewer.md',
      source: '.vscode/agents/reviewer.md',
      dialect: 'native',
    });
    expect(result.problems).toEqual([]);
    expect(result.input).toMatchObject({ tools: ['read_file', 'list_dir', 'find_files', 'search_text'], model: 'inherit' });
  });

  it('import a user-level file into the workspace folder of its own format', () => {
    expect(importTarget('/home/me/.claude/agents/rev.md')).toMatchObject({ from: 'Claude Code', target: '.claude/agents/rev.md' });
    expect(importTarget('/home/me/.copilot/agents/plan.md')).toMatchObject({ from: 'Copilot', target: '.github/agents/plan.agent.md' });
    expect(importTarget('/home/me/.copilot/agents/plan.agent.md')).toMatchObject({ target: '.github/agents/plan.agent.md' });
    expect(importTarget('/home/me/notes/x.md')).toBeUndefined();
  });

  it('declares each key once: JSON.parse keeps the last of two, so the first would be dead text', () => {
    const duplicates: string[] = [];
    const seen: Set<string>[] = [];
    visit(manifestText, {
      onObjectBegin: () => void seen.push(new Set()),
      onObjectEnd: () => void seen.pop(),
      onObjectProperty: (name, offset) => {
        const keys = seen[seen.length - 1]!;
        if (keys.has(name)) duplicates.push(`${name} at offset ${offset}`);
        keys.add(name);
      },
    });
    expect(duplicates).toEqual([]);
    const restricted = (manifest as unknown as { capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } } })
      .capabilities.untrustedWorkspaces.restrictedConfigurations;
    expect(restricted.filter((name, i) => restricted.indexOf(name) !== i)).toEqual([]);
  });
});
