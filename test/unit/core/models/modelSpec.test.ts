import { describe, expect, it } from 'vitest';
import { ModelSpecError } from '../../../../src/core/models/modelResolver';
import { parseModelSpec } from '../../../../src/core/models/modelSpec';

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
