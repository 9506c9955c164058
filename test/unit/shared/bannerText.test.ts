import { describe, expect, it } from 'vitest';
import { bannerParts } from '../../../src/shared/bannerText';

describe('bannerParts: a banner is one line, the rest under "Details"', () => {
  it('the first sentence leads; a path or a version does not end it', () => {
    expect(
      bannerParts(
        '.vscode/settings.json, line 6 (agent "reviewer"): it has no description. "reviewer" is left out until it is fixed. The other agents still work.',
      ),
    ).toEqual({
      line: '.vscode/settings.json, line 6 (agent "reviewer"): it has no description.',
      rest: '"reviewer" is left out until it is fixed. The other agents still work.',
    });
    expect(bannerParts('Version 1.2 of x is old. Update it.')).toEqual({ line: 'Version 1.2 of x is old.', rest: 'Update it.' });
  });

  it('one sentence has no rest; line breaks become spaces', () => {
    expect(bannerParts('Saved.')).toEqual({ line: 'Saved.', rest: '' });
    expect(bannerParts('Could not\n  load the thread.')).toEqual({ line: 'Could not load the thread.', rest: '' });
  });
});
