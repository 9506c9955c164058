import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../../src/core/engineSettings';
import { describeSettingProblem, readEngineSettings, settingsLayerFromJson } from '../../../../src/core/settings/readEngineSettings';

describe('readEngineSettings', () => {
  const user = { scope: 'user' as const, source: 'user settings', values: { maxDepth: 2, maxConcurrency: 3 } };
  const workspace = { scope: 'workspace' as const, source: 'ws/.vscode/settings.json', values: { maxDepth: 3, maxActiveChildren: 2 } };

  it('takes the highest scope that sets a field, whatever order the layers come in', () => {
    const { settings, problems } = readEngineSettings([workspace, user], { trusted: true });
    expect(problems).toEqual([]);
    expect(settings).toMatchObject({ maxDepth: 3, maxConcurrency: 3, maxActiveChildren: 2, approval: DEFAULT_SETTINGS.approval });
  });

  it('reads only user settings in an untrusted workspace', () => {
    const { settings } = readEngineSettings([user, workspace], { trusted: false });
    expect(settings).toMatchObject({ maxDepth: 2, maxActiveChildren: DEFAULT_SETTINGS.maxActiveChildren });
  });

  it('keeps the lower value when a higher one is invalid, and says so in a sentence', () => {
    const bad = { scope: 'workspace' as const, source: 'ws/.vscode/settings.json', values: { maxDepth: 'deep' } };
    const { settings, problems } = readEngineSettings([user, bad], { trusted: true });
    expect(settings.maxDepth).toBe(2);
    expect(problems).toHaveLength(1);
    expect(describeSettingProblem(problems[0]!)).toMatch(/^The setting "subagents.maxDepth" in ws\/.vscode\/settings.json is invalid \(.+\); it is ignored\./);
  });

  it('takes the subagents.* keys of a settings.json object', () => {
    const layer = settingsLayerFromJson({ 'subagents.maxActiveChildren': 1, 'editor.fontSize': 3 }, 'workspace', 'f');
    expect(layer.values).toEqual({ maxActiveChildren: 1 });
  });
});
