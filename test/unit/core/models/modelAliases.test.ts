import { describe, expect, it } from 'vitest';
import { candidatesFor, chooseModel, type ModelAvailability } from '../../../../src/core/models/modelAliases';

const where = (editor: { vendor: string; family: string }[] | undefined, keys: ('openai' | 'anthropic')[] = []): ModelAvailability => ({
  ...(editor ? { editorModels: editor } : {}),
  hasKey: (p) => keys.includes(p),
  keyHint: (p) => `set ${p.toUpperCase()}_API_KEY`,
});
const CLI_WITH_ANTHROPIC = where(undefined, ['anthropic']);
const EDITOR = where([
  { vendor: 'copilot', family: 'gpt-4.1' },
  { vendor: 'copilot', family: 'claude-sonnet-4' },
  { vendor: 'copilot', family: 'claude-sonnet-4.5' },
  { vendor: 'copilot', family: 'gpt-5' },
]);

describe('model aliases', () => {
  it("maps the Claude aliases to the editor's newest model of the family, else to the anthropic: spec", () => {
    expect(chooseModel('sonnet', {}, EDITOR)).toEqual({ kind: 'spec', spec: 'vscode-lm:copilot/claude-sonnet-4.5', via: 'sonnet' });
    expect(chooseModel('sonnet', {}, CLI_WITH_ANTHROPIC)).toEqual({ kind: 'spec', spec: 'anthropic:claude-sonnet-5-5', via: 'sonnet' });
    expect(chooseModel('Opus', {}, CLI_WITH_ANTHROPIC)).toMatchObject({ spec: 'anthropic:claude-opus-5-5' });
  });

  it('inherits for "inherit", and with a note when nothing the name maps to can be used here', () => {
    expect(chooseModel('inherit', {}, EDITOR)).toEqual({ kind: 'inherit' });
    const none = chooseModel('haiku', {}, where(undefined));
    expect(none).toMatchObject({ kind: 'inherit', code: 'model-unavailable' });
    expect(none.kind === 'inherit' && none.message).toMatch(/needs an Anthropic API key \(set ANTHROPIC_API_KEY\)/);
    expect(chooseModel('fancy-model-9', {}, EDITOR)).toMatchObject({ kind: 'inherit', code: 'model-unknown' });
  });

  it('tries a Copilot list in order: the first model available wins', () => {
    const list = ['GPT-5.3-Codex', 'Claude Sonnet 4.5 (copilot)', 'GPT-4.1'];
    expect(chooseModel(list, {}, EDITOR)).toEqual({
      kind: 'spec',
      spec: 'vscode-lm:copilot/claude-sonnet-4.5',
      via: 'Claude Sonnet 4.5 (copilot)',
    });
    expect(chooseModel(['GPT-4.1'], {}, where(undefined, ['openai']))).toMatchObject({ spec: 'openai:gpt-4.1' });
  });

  it('reads model ids of Claude Code and Copilot names as families', () => {
    expect(candidatesFor('claude-sonnet-4-20250514', {})).toEqual([
      'vscode-lm:copilot/claude-sonnet-4',
      'anthropic:claude-sonnet-4-20250514',
    ]);
    expect(candidatesFor('Claude Sonnet 4.6', {})).toEqual(['vscode-lm:copilot/claude-sonnet-4.6', 'anthropic:claude-sonnet-4-6']);
    expect(candidatesFor('GPT-4.1', {})).toEqual(['vscode-lm:copilot/gpt-4.1', 'openai:gpt-4.1']);
  });

  it('lets subagents.modelAliases replace a built-in alias and add new ones', () => {
    const aliases = {
      sonnet: 'openai-compatible:http://localhost:11434/v1#qwen3',
      fast: ['vscode-lm:copilot/gpt-4.1', 'openai:gpt-4.1-mini'],
    };
    expect(chooseModel('sonnet', aliases, where(undefined))).toMatchObject({ spec: 'openai-compatible:http://localhost:11434/v1#qwen3' });
    expect(chooseModel('FAST', aliases, EDITOR)).toMatchObject({ spec: 'vscode-lm:copilot/gpt-4.1' });
  });

  it('takes a spec as written, whether or not it can be used (a run that uses it says why not)', () => {
    expect(chooseModel('anthropic:claude-opus-4-1', {}, where(undefined))).toEqual({ kind: 'spec', spec: 'anthropic:claude-opus-4-1' });
  });
});
