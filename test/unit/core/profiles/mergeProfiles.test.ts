import { describe, expect, it } from 'vitest';
import { BUILTIN_PROFILES, READ_ONLY_TOOLS, builtinProfileLayer } from '../../../../src/core/config/profiles/builtinProfiles';
import { mergeProfiles } from '../../../../src/core/config/profiles/mergeProfiles';
import { profileInputSchema } from '../../../../src/core/config/profiles/profile';

describe('built-in profiles', () => {
  it('are valid profiles, and explore is read-only', () => {
    for (const profile of Object.values(BUILTIN_PROFILES)) expect(profileInputSchema.safeParse(profile).success).toBe(true);
    expect(BUILTIN_PROFILES.explore?.tools).toEqual(['read_file', 'list_dir', 'find_files', 'search_text']);
    expect(READ_ONLY_TOOLS).not.toContain('write_file');
    expect(BUILTIN_PROFILES['general-purpose']?.tools).toBeUndefined();
  });

  it('load as the lowest layer', () => {
    const set = mergeProfiles([builtinProfileLayer()]);
    expect([...set.profiles.keys()]).toEqual(['general-purpose', 'explore']);
    expect(set.profiles.get('explore')).toMatchObject({ name: 'explore', source: 'built-in' });
    expect(set.profiles.get('explore')?.instructions).toMatch(/file path/);
    expect(set.problems).toEqual([]);
  });
});

describe('mergeProfiles', () => {
  it('lets a higher layer replace a profile whole', () => {
    const set = mergeProfiles([
      builtinProfileLayer(),
      { source: 'user settings', profiles: { explore: { description: 'My explorer', model: 'openai:gpt-4o-mini' } } },
    ]);
    const explore = set.profiles.get('explore');
    expect(explore).toEqual({
      name: 'explore',
      description: 'My explorer',
      model: 'openai:gpt-4o-mini',
      instructions: '',
      source: 'user settings',
    });
    expect(explore?.tools).toBeUndefined();
  });

  it('switches a lower profile off with { enabled: false } alone, and a later layer may define it again', () => {
    const off = mergeProfiles([
      builtinProfileLayer(),
      { source: 'workspace settings', profiles: { 'general-purpose': { enabled: false } } },
    ]);
    expect([...off.profiles.keys()]).toEqual(['explore']);
    expect(off.problems).toEqual([]);
    const back = mergeProfiles([
      builtinProfileLayer(),
      { source: 'user settings', profiles: { explore: { enabled: false } } },
      { source: '.vscode/agents/explore.md', profiles: { explore: { description: 'Back again', instructions: 'Look.' } } },
    ]);
    expect(back.profiles.get('explore')).toMatchObject({
      description: 'Back again',
      instructions: 'Look.',
      source: '.vscode/agents/explore.md',
    });
  });

  it('leaves out a full profile marked enabled: false', () => {
    const set = mergeProfiles([{ source: 'user settings', profiles: { tester: { description: 'Runs tests', enabled: false } } }]);
    expect(set.profiles.size).toBe(0);
    expect(set.problems).toEqual([]);
  });

  it('reports bad profiles with source, name and field, and loads the rest', () => {
    const set = mergeProfiles([
      builtinProfileLayer(),
      {
        source: 'workspace settings',
        profiles: {
          reviewer: { description: 'Reviews diffs', tools: ['read_file', ''] },
          writer: { description: 'Writes docs', maxSteps: 0 },
          empty: { instructions: 'no description' },
          typo: { description: 'x', tols: ['read_file'] },
          explore: { description: '' },
          'Bad Name': { description: 'x' },
          notobject: 'just a string',
          ok: { description: 'Fine', agents: ['explore'] },
        },
      },
    ]);
    const byName = (name: string) => set.problems.filter((p) => p.name === name);
    expect(byName('reviewer')).toEqual([
      {
        source: 'workspace settings',
        name: 'reviewer',
        field: 'tools.1',
        message: '"tools" item 2 must not be empty',
        severity: 'error',
        code: 'bad-value',
        setting: undefined,
      },
    ]);
    expect(byName('writer')[0]).toMatchObject({ field: 'maxSteps' });
    expect(byName('empty')[0]).toMatchObject({ field: 'description' });
    expect(byName('typo')[0]).toMatchObject({ field: 'tols', message: expect.stringContaining('unknown field "tols"') });
    expect(byName('explore')[0]).toMatchObject({ field: 'description', message: '"description" must say what this agent is for' });
    expect(byName('Bad Name')[0]?.message).toMatch(/not a valid agent name: must be a slug/);
    expect(byName('notobject')[0]?.message).toMatch(/must be an object/);
    // The bad override of explore leaves the built-in in place; the good profile loads.
    expect(set.profiles.get('explore')?.source).toBe('built-in');
    expect([...set.profiles.keys()].sort()).toEqual(['explore', 'general-purpose', 'ok']);
  });

  it('refuses the reserved name supervisor', () => {
    const set = mergeProfiles([{ source: 'user settings', profiles: { supervisor: { description: 'Boss' } } }]);
    expect(set.profiles.size).toBe(0);
    expect(set.problems).toEqual([
      {
        source: 'user settings',
        name: 'supervisor',
        field: '',
        message: expect.stringContaining('reserved for the top-level agent'),
        severity: 'error',
        code: 'reserved-name',
      },
    ]);
  });

  it('reports a layer that is not an object and skips absent layers', () => {
    const set = mergeProfiles([
      { source: 'user settings', profiles: ['explore'] },
      { source: 'workspace settings', profiles: undefined },
    ]);
    expect(set.problems).toEqual([
      {
        source: 'user settings',
        name: '',
        field: '',
        message: expect.stringContaining('keyed by agent name'),
        severity: 'error',
        code: 'bad-value',
      },
    ]);
  });
});
