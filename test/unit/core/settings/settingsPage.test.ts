import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// How the Settings page lists ours: the model first, then the most used, each description short
// enough to read in about three lines, the rest in the README (a section that exists).

const root = join(__dirname, '../../../..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, { order?: unknown; description?: string; markdownDescription?: string }> } };
};
const settings = Object.entries(manifest.contributes.configuration.properties);
const readmeHeadings = new Set(
  readFileSync(join(root, 'README.md'), 'utf8')
    .split('\n')
    .filter((l) => /^#{2,3} /.test(l))
    .map((l) => l.replace(/^#+ /, '')),
);
/** About three lines of the Settings page at its usual width. */
const MAX_DESCRIPTION = 240;
/** A description as the page shows it: a link as its words (the README pointers are `command:` links). */
const shown = (s: { description?: string; markdownDescription?: string }): string =>
  (s.markdownDescription ?? s.description ?? '').replace(/\[([^\]]*)\]\([^)\s]*\)/g, '$1');

describe('the Settings page', () => {
  it('gives every setting an order, each its own, the model first and then the most used', () => {
    for (const [name, s] of settings) expect(Number.isInteger(s.order), `${name} has no integer order`).toBe(true);
    const orders = settings.map(([, s]) => s.order as number);
    expect(new Set(orders).size).toBe(orders.length);
    const byOrder = settings.sort(([, a], [, b]) => (a.order as number) - (b.order as number)).map(([name]) => name);
    expect(byOrder.slice(0, 3)).toEqual(['subagents.model', 'subagents.agents', 'subagents.approval']);
  });

  it('keeps each description to about three lines, and its pointer to the README names a section that is there', () => {
    for (const [name, s] of settings) {
      const text = shown(s);
      expect(text, `${name} has no description`).not.toBe('');
      expect(text.length, `${name}'s description is ${text.length} characters`).toBeLessThanOrEqual(MAX_DESCRIPTION);
      for (const [, section] of text.matchAll(/See the README's "([^"]+)"/g))
        expect(readmeHeadings.has(section!), `${name} points to a README section "${section}" that does not exist`).toBe(true);
    }
  });

  it('points to the README from the settings whose details live there', () => {
    const pointing = settings.filter(([, s]) => /See the README's "/.test(shown(s))).map(([n]) => n);
    for (const name of ['subagents.model', 'subagents.agents', 'subagents.autoApproveCommands', 'subagents.hooks', 'subagents.mcpServers'])
      expect(pointing).toContain(name);
  });
});
