import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openReadme, type OpenReadmeDeps } from '../../../../src/host/commands/openReadme';
import type { ReadmeSection } from '../../../../src/host/commands/readmeSections';

// "Subagents: Open README" over the real README.md; the editor (the folder, the preview, the
// warnings) is a port that records what it was asked.

const README = readFileSync(join(__dirname, '..', '..', '..', '..', 'README.md'), 'utf8');
/** The README's first line, its title: where "the top" scrolls to. */
const TOP = { slug: 'subagents-for-vs-code', line: 0 };

function editor(readme: string | undefined) {
  const seen = { previews: [] as (ReadmeSection | undefined)[], warnings: [] as string[] };
  const deps: OpenReadmeDeps = {
    folder: '/ext/subagents',
    find: async () => (readme === undefined ? undefined : { text: readme, preview: async (s) => void seen.previews.push(s) }),
    warn: (m) => void seen.warnings.push(m),
  };
  return { deps, seen };
}

describe('Subagents: Open README', () => {
  it("opens the README at the section a setting's link names, on its heading's line", async () => {
    const { deps, seen } = editor(README);
    expect(await openReadme(deps, 'configure-a-model')).toEqual({ shown: 'section', slug: 'configure-a-model' });
    const line = README.split('\n').indexOf('## Configure a model');
    expect(line).toBeGreaterThan(0);
    expect(seen.previews).toEqual([{ slug: 'configure-a-model', line }]);
    expect(seen.warnings).toEqual([]);
  });

  it('opens it at the top from the palette (no section), saying nothing', async () => {
    expect(README.split('\n')[0]).toBe('# Subagents for VS Code');
    const { deps, seen } = editor(README);
    expect(await openReadme(deps)).toEqual({ shown: 'top' });
    expect(seen.previews).toEqual([TOP]);
    expect(seen.warnings).toEqual([]);
  });

  it('opens it at the top for a section it does not have, and says so', async () => {
    const { deps, seen } = editor(README);
    expect(await openReadme(deps, 'configure-a-modle')).toEqual({ shown: 'top' });
    expect(seen.previews).toEqual([TOP]);
    expect(seen.warnings).toEqual([
      'The README has no section "configure-a-modle", so it opened at the top: its headings list what it covers.',
    ]);
  });

  it('opens it at the top for an argument that is no section name, and says what it takes', async () => {
    const { deps, seen } = editor(README);
    expect(await openReadme(deps, { fragment: 'hooks' })).toEqual({ shown: 'top' });
    expect(seen.previews).toEqual([TOP]);
    expect(seen.warnings).toEqual([
      'Open README takes a section name (a heading\'s id, such as "configure-a-model"), not {"fragment":"hooks"}, so it opened at the top.',
    ]);
  });

  it('says the README is missing from the extension folder, and where it looked, instead of failing', async () => {
    const { deps, seen } = editor(undefined);
    expect(await openReadme(deps, 'hooks')).toEqual({ shown: 'nothing' });
    expect(seen.previews).toEqual([]);
    expect(seen.warnings).toEqual(["The extension's README.md is not in its folder (/ext/subagents): reinstall Subagents to get it back."]);
  });
});

describe('Subagents: Open README, a README without a title on its first line', () => {
  it('opens it as the preview opens it (no heading named) from the palette and for an unknown section', async () => {
    const { deps, seen } = editor('Intro text.\n\n## Usage\n');
    expect(await openReadme(deps)).toEqual({ shown: 'top' });
    expect(await openReadme(deps, 'install')).toEqual({ shown: 'top' });
    expect(await openReadme(deps, 'usage')).toEqual({ shown: 'section', slug: 'usage' });
    expect(seen.previews).toEqual([undefined, undefined, { slug: 'usage', line: 2 }]);
    expect(seen.warnings).toEqual(['The README has no section "install", so it opened at the top: its headings list what it covers.']);
  });
});
