import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver/node';
import { startServer } from './lspHarness';

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanup) c();
  cleanup = [];
});

async function serverFor(files: Record<string, string>) {
  const root = mkdtempSync(join(tmpdir(), 'subagents-lsp-skills-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const s = await startServer(root, { home: join(root, 'no-home') });
  cleanup.push(() => {
    s.dispose();
    rmSync(root, { recursive: true, force: true });
  });
  return { root, s };
}

const codes = (ds: Diagnostic[]) => ds.map((d) => [d.code, d.severity, d.range.start.line]);

describe('the language server on SKILL.md', () => {
  it('says when the name is not its folder, the description is too long, and what grants nothing here', async () => {
    const text = `---\nname: Review_Code\ndescription: ${'x'.repeat(1100)}\nallowed-tools: Read Bash(git diff:*)\ncontext: fork\n---\nReview.\n`;
    const { root, s } = await serverFor({ '.claude/skills/review/SKILL.md': text });
    const uri = s.uri(join(root, '.claude/skills/review/SKILL.md'));
    s.open(uri, text);
    const { diagnostics } = await s.diagnostics(uri, (p) => p.diagnostics.length > 0);
    expect(codes(diagnostics)).toEqual([
      ['bad-name', 1, 1],
      ['bad-value', 1, 2],
      ['field-ignored', 3, 3],
      ['field-ignored', 3, 4],
    ]);
    expect(diagnostics[0]!.message).toContain('"Review_Code" is not a skill name');
    expect(diagnostics[1]!.message).toContain('at most 1024');
    expect(diagnostics[2]!.message).toContain('"allowed-tools" grants nothing here');
  });

  it('follows unsaved edits: a name that no longer equals the folder, then a missing description', async () => {
    const good = '---\nname: review\ndescription: Reviews diffs\n---\nReview.\n';
    const { root, s } = await serverFor({ '.github/skills/review/SKILL.md': good });
    const uri = s.uri(join(root, '.github/skills/review/SKILL.md'));
    s.open(uri, good);
    s.change(uri, '---\nname: reviewer\n---\nReview.\n');
    const { diagnostics } = await s.diagnostics(uri, (p) => p.diagnostics.length > 0);
    expect(codes(diagnostics)).toEqual([
      ['bad-name', 1, 1],
      ['no-description', 1, 0],
    ]);
    expect(diagnostics[0]!.message).toBe('"reviewer" must equal the name of its folder, "review": rename one of them');
  });
});
