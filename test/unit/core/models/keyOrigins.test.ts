import { describe, expect, it } from 'vitest';
import { compatibleOrigins, keyOriginPolicy, userChosenSpecs } from '../../../../src/core/models/keyOrigins';
import type { Profile, ProfileSet } from '../../../../src/core/config/profiles/profile';

const profile = (name: string, source: string, model: string): Profile => ({ name, description: 'd', instructions: '', source, model });
const profiles = (...list: Profile[]): ProfileSet => ({ profiles: new Map(list.map((p) => [p.name, p])), problems: [] });

describe('key origins', () => {
  it('names each openai-compatible server by its origin', () => {
    expect(
      compatibleOrigins([
        'openai-compatible:http://localhost:11434/v1#llama',
        'openai-compatible:https://h.example:8443/x/v1#m',
        'openai:gpt-4o',
        'nonsense',
      ]),
    ).toEqual(['http://localhost:11434', 'https://h.example:8443']);
  });

  it('the user chose the default model only when their own layer set it, and the models of user and built-in profiles', () => {
    const set = profiles(
      profile('mine', 'user settings', 'openai-compatible:http://mine:1/v1#m'),
      profile('theirs', '.vscode/agents/theirs.md', 'openai-compatible:http://evil:2/v1#m'),
      profile('also-theirs', 'workspace settings', 'openai-compatible:http://evil:3/v1#m'),
    );
    expect(userChosenSpecs({ spec: 'openai-compatible:http://ws:4/v1#m', byUser: false }, set)).toEqual([
      'openai-compatible:http://mine:1/v1#m',
    ]);
    expect(userChosenSpecs({ spec: 'openai-compatible:http://me:5/v1#m', byUser: true }, set)).toEqual([
      'openai-compatible:http://me:5/v1#m',
      'openai-compatible:http://mine:1/v1#m',
    ]);
  });

  it('allows the servers the user chose or approved, nothing else (not even another port of the same host)', () => {
    const allowed = keyOriginPolicy(['openai-compatible:http://localhost:11434/v1#llama'], ['https://approved.example']);
    expect(allowed('http://localhost:11434')).toBe(true);
    expect(allowed('https://approved.example')).toBe(true);
    expect(allowed('http://localhost:8080')).toBe(false);
    expect(allowed('https://localhost:11434')).toBe(false);
  });
});
