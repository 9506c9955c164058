import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mapCopilotTool } from '../../../../src/core/config/agentFiles/toolNames';
import { loadWorkspaceProfiles } from '../../../../src/core/config/profiles/workspaceProfiles';

const made: string[] = [];
afterAll(() => {
  for (const root of made) rmSync(root, { recursive: true, force: true });
});

function workspace(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'subagents-readwrite-'));
  made.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const tools = (name: string) => {
  const m = mapCopilotTool(name);
  return m.kind === 'ours' ? [...m.tools].sort() : m.kind;
};

describe('Copilot tool sets mean what they mean in VS Code (issue 39 item 6)', () => {
  it("reads files through search, codebase and read, as Copilot's sets do (search held readFile until VS Code 1.106)", () => {
    expect(tools('search')).toContain('read_file');
    expect(tools('codebase')).toContain('read_file');
    expect(tools('search/codebase')).toContain('read_file');
    expect(tools('read')).toEqual(['read_file']);
    expect(tools('search/readFile')).toEqual(['read_file']);
    expect(tools('searchSubagent')).toContain('read_file');
  });

  it('knows the sets of 2025 that agent files still name', () => {
    expect(tools('runCommands')).toEqual(['run_command']);
    expect(tools('runTasks')).toEqual(['run_command']);
    expect(tools('editFiles')).toEqual(['edit_file', 'write_file']);
    expect(tools('new')).toEqual(['install_extension']);
    expect(tools('runNotebooks')).toBe('none');
    expect(tools('runNotebooks/runCell')).toBe('none');
  });

  it('a reviewer with codebase, edit/editFiles, search and problems can read what it edits', () => {
    const root = workspace({
      '.github/agents/reviewer.agent.md':
        "---\ndescription: Reviews and fixes code\ntools: ['codebase', 'edit/editFiles', 'search', 'problems']\n---\nReview.\n",
    });
    const set = loadWorkspaceProfiles({ root, trusted: true });
    expect(set.profiles.get('reviewer')?.tools).toEqual(expect.arrayContaining(['read_file', 'edit_file', 'write_file', 'search_text']));
    expect(set.problems.filter((p) => p.code === 'write-without-read')).toEqual([]);
  });
});

describe('an agent that may edit can always read', () => {
  it('adds read_file to a writer whose tools leave it out, with a warning at its tools in the file', () => {
    const root = workspace({
      '.github/agents/fixer.agent.md': "---\ndescription: Fixes code\ntools: ['edit/editFiles']\n---\nFix.\n",
      '.vscode/agents/scribe.md': '---\ndescription: Writes notes\ntools: [write_file]\n---\nWrite.\n',
    });
    const set = loadWorkspaceProfiles({ root, trusted: true });
    expect(set.profiles.get('fixer')?.tools).toEqual(['edit_file', 'write_file', 'read_file']);
    expect(set.profiles.get('scribe')?.tools).toEqual(['write_file', 'read_file']);
    const warnings = set.problems.filter((p) => p.code === 'write-without-read');
    expect(warnings).toHaveLength(2);
    const scribe = warnings.find((w) => w.name === 'scribe');
    expect(scribe).toMatchObject({
      severity: 'warning',
      field: 'tools',
      path: join(root, '.vscode/agents/scribe.md'),
      range: { start: { line: 2 } },
    });
    expect(scribe!.message).toMatch(/can write files \(write_file\) but its "tools" do not include read_file; read_file is added/);
  });

  it('a settings profile that writes gets read_file too, and the warning names the setting', () => {
    const set = loadWorkspaceProfiles({
      root: undefined,
      trusted: true,
      userAgents: { editor: { description: 'Edits', tools: ['edit_file'] } },
    });
    expect(set.profiles.get('editor')?.tools).toEqual(['edit_file', 'read_file']);
    expect(set.problems).toContainEqual(
      expect.objectContaining({ code: 'write-without-read', setting: 'subagents.agents', name: 'editor' }),
    );
  });

  it('honours a disallowedTools that takes read_file from a writer, and warns that it edits blind', () => {
    const set = loadWorkspaceProfiles({
      root: undefined,
      trusted: true,
      userAgents: { blind: { description: 'Edits blind', disallowedTools: ['read_file'] } },
    });
    expect(set.profiles.get('blind')?.disallowedTools).toEqual(['read_file']);
    expect(set.problems).toContainEqual(
      expect.objectContaining({
        code: 'write-without-read',
        field: 'disallowedTools',
        message: expect.stringMatching(/can write files \(edit_file and write_file\) but not read them/),
      }),
    );
  });

  it('says nothing of a reader, of an agent that cannot write, or of one whose write tools are all taken away', () => {
    const set = loadWorkspaceProfiles({
      root: undefined,
      trusted: true,
      userAgents: {
        looker: { description: 'Looks', tools: ['search_text'] },
        full: { description: 'Everything' },
        careful: { description: 'No writes', disallowedTools: ['read_file', 'edit_file', 'write_file'] },
      },
    });
    expect(set.problems.filter((p) => p.code === 'write-without-read')).toEqual([]);
    expect(set.profiles.get('looker')?.tools).toEqual(['search_text']);
  });
});
