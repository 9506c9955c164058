import { describe, expect, it } from 'vitest';
import { ModelSpecError } from '../../../../src/core/models/modelResolver';
import { parseModelSpec } from '../../../../src/core/models/modelSpec';
import { engineSettingsSchema } from '../../../../src/core/config/settings/engineSettings';
import { profileInputSchema } from '../../../../src/core/config/profiles/profile';

describe('parseModelSpec', () => {
  it('parses every accepted form', () => {
    expect(parseModelSpec('vscode-lm:copilot/gpt-4o')).toEqual({ kind: 'vscode-lm', vendor: 'copilot', family: 'gpt-4o' });
    expect(parseModelSpec('openai-compatible:http://localhost:11434/v1/#llama3.1:8b')).toEqual({
      kind: 'openai-compatible',
      baseURL: 'http://localhost:11434/v1',
      model: 'llama3.1:8b',
    });
    expect(parseModelSpec('openai:gpt-4o')).toEqual({ kind: 'openai', model: 'gpt-4o' });
    expect(parseModelSpec('anthropic:claude-sonnet-4-5')).toEqual({ kind: 'anthropic', model: 'claude-sonnet-4-5' });
    expect(parseModelSpec('scripted:test/fixtures/s.json')).toEqual({ kind: 'scripted', path: 'test/fixtures/s.json' });
  });

  it.each([
    ['', /is empty/],
    ['gpt-4o', /has no provider prefix/],
    ['foo:bar', /unknown provider "foo"/],
    ['vscode-lm:copilot', /needs a vendor and a family/],
    ['vscode-lm:/gpt', /needs a vendor and a family/],
    ['openai-compatible:http://x/v1', /base URL and a model/],
    ['openai-compatible:not a url#m', /not a URL/],
    ['openai-compatible:ftp://x#m', /http:\/\/ or https:\/\//],
    ['openai:', /names no model/],
    ['scripted:', /names no script file/],
  ])('refuses %j, listing the accepted forms', (spec, why) => {
    let error: unknown;
    try {
      parseModelSpec(spec);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ModelSpecError);
    expect((error as Error).message).toMatch(why);
    expect((error as Error).message).toContain('Use one of: vscode-lm:<vendor>/<family>');
  });
});

describe('model specs where they are read', () => {
  it("are checked in profiles and settings with the parser's message", () => {
    const profile = profileInputSchema.safeParse({ description: 'd', model: 'openai:' });
    expect(profile.success).toBe(false);
    expect(profile.error?.issues[0]).toMatchObject({
      path: ['model'],
      message: expect.stringMatching(/"openai:" names no model\. Use one of: vscode-lm:/),
    });
    // A name without a provider is an alias or a model's own name, resolved when profiles load (modelAliases.ts).
    expect(profileInputSchema.safeParse({ description: 'd', model: 'gpt-4o' }).success).toBe(true);
    expect(profileInputSchema.safeParse({ description: 'd', model: 'no; such {model}' }).success).toBe(false);
    expect(profileInputSchema.safeParse({ description: 'd', model: 'openai:gpt-4o' }).success).toBe(true);
    expect(engineSettingsSchema.parse({}).model).toBe('');
    expect(engineSettingsSchema.safeParse({ model: 'anthropic:' }).success).toBe(false);
  });
});
