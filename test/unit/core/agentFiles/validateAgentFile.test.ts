import { describe, expect, it } from 'vitest';
import type { AgentFileDialect } from '../../../../src/core/config/agentFiles/agentFields';
import { DELEGATION_TOOLS } from '../../../../src/core/config/agentFiles/toolNames';
import { validateAgentFile } from '../../../../src/core/config/agentFiles/validateAgentFile';

const DIRS = { native: '.vscode/agents', claude: '.claude/agents', copilot: '.github/agents' } as const;
const check = (dialect: AgentFileDialect, fileName: string, text: string) =>
  validateAgentFile(text, { path: `/ws/${DIRS[dialect]}/${fileName}`, source: `${DIRS[dialect]}/${fileName}`, dialect });
const codes = (r: ReturnType<typeof check>) => r.problems.map((p) => `${p.severity}:${p.code}`);

describe('validateAgentFile: Claude Code files', () => {
  it('imports name, description, tools, maxTurns and the body, and notes what it cannot honour', () => {
    const r = check(
      'claude',
      'rev.md',
      '---\nname: code-reviewer\ndescription: Reviews code\ntools: Read, Grep, WebFetch, mcp__github__get_pr\nmaxTurns: 12\ncolor: blue\nmodel: sonnet\n---\nReview carefully.',
    );
    expect(r.id).toBe('code-reviewer');
    expect(r.input).toEqual({
      description: 'Reviews code',
      tools: ['read_file', 'search_text', 'web_fetch'],
      maxSteps: 12,
      model: 'sonnet',
      instructions: 'Review carefully.',
    });
    expect(codes(r)).toEqual(['information:tool-approximate', 'information:tool-mcp', 'information:field-ignored']);
    const later = r.problems[0]!;
    expect(later.message).toMatch(/^"WebFetch" is mapped to web_fetch: the page comes back as Markdown/);
    // The range is the tool's own place in "Read, Grep, WebFetch, …".
    expect(later.range).toEqual({ start: { line: 3, character: 19 }, end: { line: 3, character: 27 } });
    expect(r.problems[1]!.message).toMatch(/MCP server "github" \(mcp__github__get_pr here\)/);
  });

  it('honours isolation: worktree (no note); another value is a warning and is left out', () => {
    const r = check('claude', 'alone.md', '---\nname: alone\ndescription: Works alone\nisolation: worktree\n---\n');
    expect(r.input).toMatchObject({ isolation: 'worktree' });
    expect(r.problems).toEqual([]);
    const bad = check('claude', 'odd.md', '---\nname: odd\ndescription: Odd\nisolation: container\n---\n');
    expect(bad.input).not.toHaveProperty('isolation');
    expect(bad.problems).toEqual([
      expect.objectContaining({ code: 'bad-value', severity: 'warning', message: '"isolation" must be "worktree", so it is ignored' }),
    ]);
    const native = check('native', 'alone.md', '---\ndescription: Works alone\nisolation: worktree\n---\n');
    expect(native.input).toMatchObject({ isolation: 'worktree' });
  });

  it('applies disallowedTools, and reads Task(a, b) as delegation to those agents', () => {
    const r = check(
      'claude',
      'lead.md',
      '---\nname: lead\ndescription: Leads\ntools: Read, Task(reviewer, tester)\ndisallowedTools: Bash\n---\n',
    );
    expect(r.input).toMatchObject({
      tools: ['read_file', ...DELEGATION_TOOLS],
      agents: ['reviewer', 'tester'],
      disallowedTools: ['run_command'],
    });
  });

  it('requires a name, as Claude Code does, and offers to add one', () => {
    const r = check('claude', 'helper.md', '---\ndescription: Helps\n---\n');
    expect(r.input).toBeUndefined();
    expect(r.problems[0]).toMatchObject({ code: 'no-name', severity: 'error', fixes: [{ newText: 'name: helper\n' }] });
  });

  it('makes a name that is not a slug one, with a note', () => {
    const r = check('claude', 'ps.md', '---\nname: powershell-5.1-expert\ndescription: PowerShell\n---\n');
    expect(r.id).toBe('powershell-5-1-expert');
    expect(codes(r)).toEqual(['information:id-from-name']);
  });

  it('reads a one-line description strict YAML refuses, and says which reader read it and why', () => {
    const r = check('claude', 'hipaa.md', "---\nname: hipaa\ndescription: Use for health data. Triggers on: 'HIPAA', 'PHI'.\n---\n");
    expect(r.input).toMatchObject({ description: "Use for health data. Triggers on: 'HIPAA', 'PHI'." });
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatchObject({ code: 'lenient-front-matter', severity: 'information', field: 'description' });
    expect(r.problems[0]!.message).toMatch(
      /not strict YAML \(the "description" value has a colon followed by a space on line 3, .*\), so it was read line by line, as Claude Code reads such files/,
    );
    expect(r.problems[0]!.fixes![0]!.newText).toBe(JSON.stringify("Use for health data. Triggers on: 'HIPAA', 'PHI'."));
  });

  it('warns when none of the listed tools can be used here', () => {
    const r = check('claude', 'web.md', '---\nname: web\ndescription: Browses\ntools: WebSearch, ExitPlanMode\n---\n');
    expect(r.input).toMatchObject({ tools: [] });
    expect(codes(r)).toContain('warning:no-usable-tools');
  });
});

describe("validateAgentFile: an agent whose tools are its own MCP server's (issue 39 item 12)", () => {
  it('gives no "no tools at all" warning to a Copilot agent with only its own server\'s tools', () => {
    const r = check(
      'copilot',
      'docs.agent.md',
      "---\ndescription: Answers from the docs\ntools: ['docs/*']\nmcp-servers:\n  docs:\n    type: stdio\n    command: docs-server\n---\nAnswer.",
    );
    expect(r.input).toMatchObject({ tools: ['mcp__docs__*'] });
    expect(codes(r)).not.toContain('warning:no-usable-tools');
  });

  it('nor to a Claude Code agent with only mcp__<its server>__<tool>', () => {
    const r = check(
      'claude',
      'gh.md',
      '---\nname: gh\ndescription: Reads issues\ntools: mcp__github__list_issues\nmcpServers:\n  github:\n    command: gh-mcp\n---\n',
    );
    expect(r.input).toMatchObject({ tools: ['mcp__github__list_issues'] });
    expect(codes(r)).not.toContain('warning:no-usable-tools');
  });

  it('still warns when the only tools are of a server nobody declared', () => {
    const r = check('claude', 'gh.md', '---\nname: gh\ndescription: Reads issues\ntools: mcp__github__list_issues\n---\n');
    expect(codes(r)).toContain('warning:no-usable-tools');
  });
});

describe('validateAgentFile: Copilot files', () => {
  it('takes the id from the file name (made a slug) and name: as the display name', () => {
    const r = check(
      'copilot',
      'devsquad.init.agent.md',
      "---\nname: 'C# Expert'\ndescription: Knows C#\ntools: ['search', 'edit/editFiles', 'execute/runInTerminal', 'github/*']\nmodel: ['GPT-5', 'Claude Sonnet 4.5']\nagents: ['SWE', 'devsquad.plan']\nhandoffs:\n  - label: Go\n---\nBody",
    );
    expect(r.id).toBe('devsquad-init');
    expect(r.input).toEqual({
      description: 'Knows C#',
      displayName: 'C# Expert',
      tools: ['find_files', 'search_text', 'list_dir', 'read_file', 'edit_file', 'write_file', 'run_command'],
      model: ['GPT-5', 'Claude Sonnet 4.5'],
      agents: ['swe', 'devsquad-plan'],
      instructions: 'Body',
    });
    expect(codes(r)).toEqual(['information:id-from-name', 'information:tool-mcp', 'information:field-ignored']);
  });

  it('says the description is missing: the supervisor needs one even where Copilot does not', () => {
    const r = check('copilot', 'arch.agent.md', "---\nname: 'Architect'\ntools: ['codebase']\n---\n");
    expect(r.input).toBeUndefined();
    expect(r.problems[0]).toMatchObject({ code: 'no-description', severity: 'error', range: { start: { line: 0 } } });
    expect(r.problems[0]!.message).toMatch(/Copilot does not require one/);
  });
});

describe('validateAgentFile: our own files', () => {
  it('warns about a foreign tool name, still maps it, and offers our name as the fix', () => {
    const r = check('native', 'x.md', '---\ndescription: Looks\ntools:\n  - Read\n  - search\n  - read_file\n---\n');
    expect(r.input).toMatchObject({ tools: ['read_file', 'find_files', 'search_text', 'list_dir'] });
    expect(r.problems.map((p) => [p.code, p.range!.start.line, p.fixes?.[0]?.newText])).toEqual([
      ['tool-foreign', 3, 'read_file'],
      ['tool-foreign', 4, 'find_files\n  - search_text\n  - list_dir\n  - read_file'],
    ]);
  });

  it('says a tool of an earlier version was renamed, reads it as the tool that does it now, and offers that name', () => {
    const r = check('native', 'x.md', '---\ndescription: Boss\ntools:\n  - read_file\n  - subagent_start\n  - subagent_await\n---\n');
    expect(r.input).toMatchObject({ tools: ['read_file', 'delegate_task', 'background_runs'] });
    expect(r.problems.map((p) => [p.code, p.severity, p.range!.start.line, p.message, p.fixes?.[0]?.newText])).toEqual([
      [
        'tool-renamed',
        'warning',
        4,
        '"subagent_start" was renamed: it is now delegate_task with background: true, and is read as delegate_task',
        'delegate_task',
      ],
      [
        'tool-renamed',
        'warning',
        5,
        '"subagent_await" was renamed: it is now background_runs with action "wait", and is read as background_runs',
        'background_runs',
      ],
    ]);
    // In a Claude Code file too: the same note, not silence.
    const claude = check('claude', 'y.md', '---\nname: y\ndescription: Boss\ntools: Read, subagent_cancel\n---\n');
    expect(claude.input?.tools).toEqual(['read_file', 'background_runs']);
    expect(claude.problems.map((p) => p.code)).toContain('tool-renamed');
  });

  it('warns about an unknown field with a "did you mean" fix, and an unknown tool', () => {
    const r = check('native', 'x.md', '---\ndescription: ok\nmaxStep: 3\ntools: [read_fil, list_dir]\n---\n');
    expect(r.problems.map((p) => [p.code, p.message])).toEqual([
      ['unknown-field', '"maxStep" is not a field of our agent files; did you mean "maxSteps"?'],
      ['tool-unknown', '"read_fil" is not a tool we know, so it is left out; did you mean "read_file"?'],
    ]);
    expect(r.problems[0]!.fixes).toEqual([{ title: 'Rename to "maxSteps"', newText: 'maxSteps' }]);
  });

  it("keeps a name that is none of ours for an editor tool of that name (another extension's), with a note", () => {
    const r = check('copilot', 'x.agent.md', "---\ndescription: ok\ntools: ['codebase', 'ext_lookup', 'not a name!']\n---\n");
    expect(r.input?.tools).toContain('ext_lookup');
    expect(r.input?.tools).not.toContain('not a name!');
    expect(r.problems.map((p) => [p.code, p.message])).toContainEqual([
      'tool-editor',
      '"ext_lookup" is not one of our tools: it is offered when the editor has a tool of that name (another extension\'s, or an MCP server of VS Code; in the extension only), and otherwise left out',
    ]);
  });

  it('reports every bad value of a file in plain words, at its place, and keeps the file out', () => {
    const r = check('native', 'x.md', '---\ndescription: ok\nmaxSteps: lots\nreturnDirectly: sometimes\n---\n');
    expect(r.input).toBeUndefined();
    expect(r.problems.map((p) => [p.message, p.range!.start.line])).toEqual([
      ['"maxSteps" must be a number', 2],
      ['"returnDirectly" must be true or false', 3],
    ]);
  });

  it('refuses a name that is not a slug, with the slug as the fix', () => {
    const r = check('native', 'x.md', '---\nname: My Helper\ndescription: ok\n---\n');
    expect(r.problems[0]).toMatchObject({ code: 'bad-name', fixes: [{ newText: 'my-helper' }] });
  });

  it('says plainly when there is no front matter', () => {
    const r = check('native', 'x.md', 'just text');
    expect(r.problems).toEqual([
      expect.objectContaining({
        code: 'no-front-matter',
        severity: 'error',
        path: '/ws/.vscode/agents/x.md',
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 9 } },
      }),
    ]);
  });
});
