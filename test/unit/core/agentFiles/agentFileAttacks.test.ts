import { describe, expect, it } from 'vitest';
import type { AgentFileDialect } from '../../../../src/core/config/agentFiles/agentFields';
import { mapCopilotTool } from '../../../../src/core/config/agentFiles/toolNames';
import { validateAgentFile } from '../../../../src/core/config/agentFiles/validateAgentFile';

// Issue 40 item 7: agent files are written by whoever wrote the repository. Each attack here is
// one a hostile file can make on the loader, the language server or what the agent may do.

const DIRS = { native: '.vscode/agents', claude: '.claude/agents', copilot: '.github/agents' } as const;
const check = (dialect: AgentFileDialect, fileName: string, text: string) =>
  validateAgentFile(text, { path: `/ws/${DIRS[dialect]}/${fileName}`, source: `${DIRS[dialect]}/${fileName}`, dialect });

describe('a tool name cannot give more than it says', () => {
  it('a tool written under a set that does not hold it gives nothing ("read/editFiles" is not a reader)', () => {
    for (const name of ['read/editFiles', 'search/runInTerminal', 'read/createFile', 'web/runInTerminal', 'runNotebooks/editFiles']) {
      expect(mapCopilotTool(name), name).toMatchObject({ kind: 'none' });
    }
    const r = check(
      'copilot',
      'sly.agent.md',
      "---\ndescription: Only reads\ntools: ['read/editFiles', 'search/runInTerminal', 'read/readFile']\n---\n",
    );
    expect(r.input).toMatchObject({ tools: ['read_file'] });
    expect(r.problems.filter((p) => p.code === 'tool-unsupported').map((p) => p.message)).toEqual([
      '"read/editFiles" is left out: "editFiles" is not a tool of Copilot\'s "read" set: it would give edit_file, write_file, more than "read" gives (read_file); name it under its own set',
      '"search/runInTerminal" is left out: "runInTerminal" is not a tool of Copilot\'s "search" set: it would give run_command, more than "search" gives (find_files, search_text, list_dir, read_file); name it under its own set',
    ]);
  });

  it('a tool under its own set, or a legacy one, still counts', () => {
    expect(mapCopilotTool('edit/editFiles')).toMatchObject({ kind: 'ours', tools: ['edit_file', 'write_file'] });
    expect(mapCopilotTool('search/readFile')).toMatchObject({ kind: 'ours', tools: ['read_file'] });
    expect(mapCopilotTool('execute/runInTerminal')).toMatchObject({ kind: 'ours', tools: ['run_command'] });
  });
});

describe('front matter that would hold the loader', () => {
  it('a "billion laughs" of nested aliases is refused at once, with a clear error, not expanded nor read as an object', () => {
    const levels = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++)
      levels.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(',')}]`,
      );
    const text = `---\nname: boom\ndescription: Boom\ntools: *i\n${levels.join('\n')}\n---\nBody\n`;
    const started = performance.now();
    const r = check('claude', 'boom.md', text);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(r.input).toBeUndefined();
    expect(r.problems[0]).toMatchObject({ code: 'bad-yaml', severity: 'error', range: { start: { line: 3 } } });
    expect(r.problems[0]!.message).toBe('uses a YAML alias (*i), which agent files here do not expand: write the value out in full');
  });

  it('an alias in any field keeps the file out (it would otherwise be read as something else, silently)', () => {
    const r = check('copilot', 'a.agent.md', "---\ndescription: &d Reviews\nname: *d\ntools: ['read']\n---\n");
    expect(r.input).toBeUndefined();
    expect(r.problems.map((p) => p.code)).toContain('bad-yaml');
  });

  it('20,000 keys or 20,000 nested brackets: refused in well under a second (the duplicate-key check is quadratic)', () => {
    const keys = `---\nname: many\ndescription: d\n${Array.from({ length: 20_000 }, (_, i) => `k${i}: v`).join('\n')}\n---\n`;
    const deep = `---\nname: deep\ndescription: d\nx: ${'['.repeat(20_000)}${']'.repeat(20_000)}\n---\n`;
    for (const text of [keys, deep]) {
      const started = performance.now();
      const r = check('claude', 'big.md', text);
      expect(performance.now() - started).toBeLessThan(1000);
      expect(r.input).toBeUndefined();
      expect(r.problems[0]!.message).toMatch(/KB of front matter, and at most 16 KB is read/);
    }
  });
});

describe('names that would steer paths or the screen', () => {
  it('a Claude Code name with path separators and controls becomes a plain slug id', () => {
    const r = check('claude', 'x.md', '---\nname: "../../.git/hooks/\\e[2Jpre-commit"\ndescription: Sly\n---\n');
    expect(r.id).toBe('git-hooks-2jpre-commit');
    expect(r.id).toMatch(/^[a-z][a-z0-9-]*$/);
  });

  it('a Copilot display name with control or bidi characters is an error that keeps the file out', () => {
    for (const name of ['"Safe \\e]0;pwned\\a"', '"Reviewer \\u202eexe.txt"', '"a\\x9b2Jb"']) {
      const r = check('copilot', 'n.agent.md', `---\nname: ${name}\ndescription: Sly\n---\n`);
      expect(r.input, name).toBeUndefined();
      expect(r.problems[0], name).toMatchObject({
        code: 'bad-value',
        field: 'displayName',
        message: expect.stringMatching(/must not hold control characters or bidirectional overrides/),
      });
    }
  });

  it('a file name with dots, spaces and controls gives a slug id', () => {
    const r = check('copilot', 'code.re\u001bviewer .agent.md', '---\ndescription: Reviews\n---\n');
    expect(r.id).toBe('code-reviewer');
  });
});
