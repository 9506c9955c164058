import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { brokenAgents, unknownAgentText } from '../../../../src/core/config/profiles/brokenAgents';
import { loadWorkspaceProfiles } from '../../../../src/core/config/profiles/workspaceProfiles';
import { parsePromptAgent } from '../../../../src/shared/promptAgent';

// Issue 42 item 5: `@broken` names the file that failed to load and why, in the panel and the engine.

const made: string[] = [];
afterAll(() => {
  for (const root of made) rmSync(root, { recursive: true, force: true });
});

function workspace(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'subagents-broken-'));
  made.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('an agent file that failed to load', () => {
  const root = workspace({
    '.github/agents/broken.agent.md': "---\nname: broken\ndescription: 'never closed\ntools: [read_file]\n---\nBody\n",
    '.vscode/agents/nodesc.md': '---\nname: quiet\n---\nNo description.\n',
    '.vscode/agents/good.md': '---\ndescription: fine\n---\n',
  });
  const set = loadWorkspaceProfiles({ root, trusted: true });

  it('is listed by the id it would have, with its file, line and why; a loaded agent is not', () => {
    const broken = brokenAgents(set.problems, set.profiles);
    expect(set.profiles.has('good')).toBe(true);
    expect(broken.map((b) => b.name).sort()).toEqual(['broken', 'quiet']);
    const file = broken.find((b) => b.name === 'broken')!;
    // The YAML error comes first, at its line (the unclosed quote), not the missing description it causes.
    expect(file).toEqual({
      name: 'broken',
      file: '.github/agents/broken.agent.md, line 3',
      why: 'has front matter that no reader can read: the "description" value on line 3 opens a quote (\') that is never closed; close it at the end of the value',
    });
    expect(broken.find((b) => b.name === 'quiet')!.file).toBe('.vscode/agents/nodesc.md, line 1');
  });

  it('`@broken` in the prompt box says which file failed and why, not "no such agent"', () => {
    const broken = brokenAgents(set.problems, set.profiles);
    const target = parsePromptAgent('@broken fix the invoice', [...set.profiles.keys()], broken);
    expect(target.ok).toBe(false);
    if (target.ok) return;
    expect(target.error).toMatch(
      /^@broken did not load: \.github\/agents\/broken\.agent\.md, line \d+: .+\. Fix the file, then try again\.$/,
    );
    // A name that is neither loaded nor broken still lists what there is.
    const unknown = parsePromptAgent('@ghost do it', [...set.profiles.keys()], broken);
    expect(unknown).toEqual({ ok: false, error: 'There is no agent "ghost". Agents: @general-purpose, @explore, @good.' });
  });

  it("the engine (the CLI's --agent) says the same", () => {
    expect(unknownAgentText('quiet', set.problems, set.profiles)).toBe(
      '@quiet did not load: .vscode/agents/nodesc.md, line 1: has no description: add "description:" saying what this agent is for and when to use it. Fix the file, then try again.',
    );
    expect(unknownAgentText('ghost', set.problems, set.profiles)).toBe(
      'There is no enabled agent "ghost". Available agents: general-purpose, explore, good.',
    );
  });

  it('a file that says no name is known by its file name', () => {
    const other = workspace({ '.github/agents/Code.Reviewer.agent.md': 'no front matter at all' });
    const loaded = loadWorkspaceProfiles({ root: other, trusted: true });
    expect(brokenAgents(loaded.problems, loaded.profiles).map((b) => [b.name, b.file])).toEqual([
      ['code-reviewer', '.github/agents/Code.Reviewer.agent.md, line 1'],
    ]);
  });
});
