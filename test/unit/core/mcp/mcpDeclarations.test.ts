import { describe, expect, it } from 'vitest';
import { validateAgentFile } from '../../../../src/core/config/agentFiles/validateAgentFile';
import { expandVariables } from '../../../../src/core/config/mcp/expandVariables';
import { declareMcpServers, describeMcpDeclProblem, profileMcpServers } from '../../../../src/core/config/mcp/mcpDeclarations';
import { McpHub } from '../../../../src/core/tools/mcp/mcpHub';
import { mcpApprovalKey, mcpServerKey } from '../../../../src/core/config/mcp/mcpServerKey';
import { readMcpServerConfig, type McpServerConfig } from '../../../../src/core/config/mcp/mcpServerConfig';
import { mcpToolName } from '../../../../src/core/config/mcp/mcpToolName';
import { listsServer, listsTool, barsServer } from '../../../../src/core/config/profiles/toolPatterns';

const files = (entries: Record<string, unknown>) => (path: string) => {
  const hit = Object.entries(entries).find(([rel]) => path.endsWith(`/${rel}`));
  return hit ? (typeof hit[1] === 'string' ? hit[1] : JSON.stringify(hit[1])) : undefined;
};

describe('where MCP servers are declared', () => {
  it('reads user settings, .mcp.json, .vscode/mcp.json and workspace settings, each with who declared it; one name declared differently twice is a conflict', () => {
    const declared = declareMcpServers({
      root: '/ws',
      trusted: true,
      user: { a: { command: 'a-user' }, b: { command: 'b-user' } },
      workspace: [{ source: '.vscode/settings.json', value: { d: { url: 'https://d.example/mcp' } } }],
      readText: files({
        '.mcp.json': { mcpServers: { b: { command: 'b-claude' }, c: { type: 'sse', url: 'https://c.example/sse' } } },
        '.vscode/mcp.json': '{ // VS Code allows comments\n "servers": { "c": { "type": "stdio", "command": "c-vscode" } } }',
      }),
    });
    expect(declared.problems.map((p) => [p.server, p.source, p.conflict])).toEqual([
      ['b', 'user settings', true],
      ['c', '.mcp.json', true],
    ]);
    expect(declared.servers.map((s) => [s.name, s.origin, s.source, s.config.transport])).toEqual([
      ['a', 'user', 'user settings', 'stdio'],
      ['d', 'workspace', '.vscode/settings.json', 'http'],
    ]);
  });

  it('declares nothing from an untrusted workspace, and says what is wrong with a bad declaration', () => {
    const untrusted = declareMcpServers({
      root: '/ws',
      trusted: false,
      user: { a: { command: 'x' } },
      workspace: [{ source: 'w', value: { b: { command: 'y' } } }],
      readText: files({ '.mcp.json': { mcpServers: { c: { command: 'z' } } } }),
    });
    expect(untrusted.servers.map((s) => s.name)).toEqual(['a']);
    const bad = declareMcpServers({
      root: '/ws',
      trusted: true,
      user: { two__parts: { command: 'x' }, both: { command: 'x', url: 'https://x' }, none: {}, ftp: { url: 'ftp://x' } },
      readText: files({ '.mcp.json': '{ nope' }),
    });
    expect(bad.servers).toEqual([]);
    expect(bad.problems.map(describeMcpDeclProblem)).toEqual([
      expect.stringContaining('"two__parts" in user settings has a name that must be letters'),
      expect.stringContaining('"both" in user settings has both "command" and "url"'),
      expect.stringContaining('"none" in user settings needs a "command"'),
      expect.stringContaining('"ftp" in user settings "url" must be an http:// or https:// address'),
      expect.stringContaining('.mcp.json is not valid JSON at line 1'),
    ]);
  });

  it("reads an agent file's own servers: Claude Code's mcpServers and Copilot's mcp-servers, whose tools its tools list may name", () => {
    const claude = validateAgentFile(
      '---\nname: helper\ndescription: Helps\ntools: Read, mcp__gh__get_issue\nmcpServers:\n  - shared\n  - gh:\n      command: npx\n      args: [gh-mcp]\n---\n',
      { path: '/ws/.claude/agents/helper.md', source: '.claude/agents/helper.md', dialect: 'claude' },
      { mcpServers: [] },
    );
    expect(claude.input).toMatchObject({
      tools: ['read_file', 'mcp__gh__get_issue'],
      mcpServers: { gh: { command: 'npx', args: ['gh-mcp'] } },
    });
    expect(claude.problems.map((p) => p.message)).toEqual([
      expect.stringContaining('names the MCP server "shared", which no configuration declares'),
    ]);
    const copilot = validateAgentFile(
      "---\ndescription: Uses GitHub\ntools: ['github/*']\nmcp-servers:\n  github:\n    type: local\n    command: gh-mcp\n    tools: ['*']\n---\n",
      { path: '/ws/.github/agents/g.agent.md', source: '.github/agents/g.agent.md', dialect: 'copilot' },
      { mcpServers: [] },
    );
    expect(copilot.input).toMatchObject({ tools: ['mcp__github__*'], mcpServers: { github: { command: 'gh-mcp' } } });
    // A profile's servers are the workspace's when its file is, and read Claude Code's ${NAME} variables.
    const [decl] = profileMcpServers({
      name: 'g',
      description: 'd',
      instructions: '',
      source: '.github/agents/g.agent.md',
      origin: { path: '/ws/.github/agents/g.agent.md', ranges: {} },
      mcpServers: copilot.input!['mcpServers'] as Record<string, unknown>,
    });
    expect(decl).toMatchObject({ name: 'github', origin: 'workspace', profile: 'g', bareNames: true });
  });
});

describe('variables, approval keys and tool names', () => {
  const context = { env: { TOKEN: 't0k', EMPTY: '' }, workspaceFolder: '/ws', userHome: '/home/me', bareNames: false };
  it('expands ${env:NAME}, ${workspaceFolder} and, in Claude Code files, ${NAME:-default}; a missing one is named', () => {
    expect(expandVariables('Bearer ${env:TOKEN} in ${workspaceFolder}', context)).toBe('Bearer t0k in /ws');
    expect(() => expandVariables('${env:NOPE}', context)).toThrow('the environment variable NOPE is not set');
    expect(() => expandVariables('${input:token}', context)).toThrow('VS Code input prompt');
    expect(expandVariables('${TOKEN}', context)).toBe('${TOKEN}');
    expect(expandVariables('${TOKEN} ${EMPTY:-fallback}', { ...context, bareNames: true })).toBe('t0k fallback');
  });

  it('asks again when the command, arguments, folder or a written env value change, not when a token in the environment does', () => {
    const config = (over: Partial<Extract<McpServerConfig, { transport: 'stdio' }>> = {}): McpServerConfig =>
      ({
        ...(
          readMcpServerConfig({ command: 'node', args: ['s.js'], env: { TOKEN: '${env:TOKEN}', MODE: 'x' } }) as { config: McpServerConfig }
        ).config,
        ...over,
      }) as McpServerConfig;
    const key = mcpServerKey(config());
    expect(mcpServerKey(config())).toBe(key);
    expect(mcpServerKey(config({ args: ['other.js'] }))).not.toBe(key);
    expect(mcpServerKey(config({ cwd: 'sub' }))).not.toBe(key);
    expect(mcpServerKey(config({ env: { TOKEN: '${env:TOKEN}', MODE: 'y' } }))).not.toBe(key);
    expect(mcpServerKey(config({ env: { TOKEN: '${env:TOKEN}', MODE: 'x', NODE_OPTIONS: '--require x' } }))).not.toBe(key);
    expect(mcpServerKey({ transport: 'http', url: 'https://a/mcp', headers: { Authorization: 'one' } })).toBe(
      mcpServerKey({ transport: 'http', url: 'https://a/mcp', headers: { Authorization: 'two' } }),
    );
  });

  it('names tools mcp__<server>__<tool> in provider-safe characters, and matches lists with wildcards', () => {
    expect(mcpToolName('github', 'get_issue')).toBe('mcp__github__get_issue');
    expect(mcpToolName('microsoft.docs', 'search-docs')).toBe('mcp__microsoft_docs__search-docs');
    const long = mcpToolName('server', 'x'.repeat(80));
    expect(long).toHaveLength(64);
    expect(long).toMatch(/^mcp__server__x+_[0-9a-f]{8}$/);
    expect(listsTool(['mcp__github__*'], 'mcp__github__get_issue')).toBe(true);
    expect(listsTool(['mcp__github__*'], 'mcp__gitlab__get_issue')).toBe(false);
    // A setting written before the background tools were folded: the old name lists what does it now.
    expect(listsTool(['subagent_start'], 'delegate_task')).toBe(true);
    expect(listsTool(['subagent_status'], 'background_runs')).toBe(true);
    expect(listsTool(['subagent_status'], 'delegate_task')).toBe(false);
    expect(listsTool(['mcp__microsoft.docs__search-docs'], 'mcp__microsoft_docs__search-docs')).toBe(true);
    expect(listsTool(['read_file'], 'mcp__github__get_issue')).toBe(false);
    expect(listsServer(['read_file', 'mcp__github__get_issue'], 'github')).toBe(true);
    expect(listsServer(['read_file'], 'github')).toBe(false);
    expect(barsServer(['mcp__github__*'], 'github')).toBe(true);
    expect(barsServer(['mcp__github__get_issue'], 'github')).toBe(false);
  });
});

describe('approvals of workspace servers', () => {
  const decl = (args: string[]) => ({
    name: 'fx',
    origin: 'workspace' as const,
    source: '.mcp.json',
    bareNames: true,
    config: { transport: 'stdio' as const, command: 'node', args, env: {} },
  });
  it('asks once per process for concurrent runs, remembers an approval for the workspace, and asks again when the declaration changes', async () => {
    const remembered = new Set<string>();
    const memory = { isApproved: (k: string) => remembered.has(k), remember: (k: string) => void remembered.add(k) };
    const hub = new McpHub({ root: '/ws', declarations: () => ({ servers: [], problems: [] }), memory });
    let asked = 0;
    const ask = async () => (asked++, true);
    expect(hub.preApproved(decl(['a.js']))).toBe(false);
    expect(await Promise.all([hub.approval(decl(['a.js']), ask), hub.approval(decl(['a.js']), ask)])).toEqual([true, true]);
    expect(asked).toBe(1);
    // A new window with the same workspace memory starts it unasked; a changed one asks.
    const next = new McpHub({ root: '/ws', declarations: () => ({ servers: [], problems: [] }), memory });
    expect(next.preApproved(decl(['a.js']))).toBe(true);
    expect(next.preApproved(decl(['b.js']))).toBe(false);
    // The CLI's --allow-mcp names it; user settings need no approval at all.
    const allowed = new McpHub({
      root: '/ws',
      declarations: () => ({ servers: [], problems: [] }),
      allowedKeys: [mcpApprovalKey(decl(['c.js']))],
    });
    expect(allowed.preApproved(decl(['c.js']))).toBe(true);
    expect(allowed.preApproved(decl(['other.js']))).toBe(false);
    expect(hub.preApproved({ ...decl(['d.js']), origin: 'user' })).toBe(true);
    // No answer (the run stopped): asked again next time; a denial is kept for the process.
    expect(await hub.approval(decl(['e.js']), async () => undefined)).toBe(false);
    expect(await hub.approval(decl(['e.js']), async () => false)).toBe(false);
    expect(await hub.approval(decl(['e.js']), async () => true)).toBe(false);
  });
});

describe('starting a server', () => {
  const decl = {
    name: 'fx',
    origin: 'user' as const,
    source: 'user settings',
    bareNames: true,
    config: { transport: 'stdio' as const, command: 'node', args: ['server.js'], env: {} },
  };
  const settings = { 'sandbox.mode': 'off' as const, 'sandbox.allowedHosts': [], 'commandEnv.exclude': [] };
  const connection = {
    tools: [],
    transport: 'stdio' as const,
    pid: undefined,
    callTool: () => Promise.reject(new Error('unused')),
    close: async () => {},
    onLost: () => () => {},
  };

  it('tries once more when bubblewrap refused to set up its sandbox (the server never ran); other failures are said at once', async () => {
    const failures = [
      new Error(
        "the server process exited before it answered; it wrote: bwrap: Can't create file at /ws/.claude/commands: Read-only file system",
      ),
    ];
    let attempts = 0;
    const connect = async () => async () => {
      attempts++;
      const failure = failures.shift();
      if (failure) throw failure;
      return connection;
    };
    const hub = new McpHub({ root: '/ws', declarations: () => ({ servers: [], problems: [] }), connect });
    expect((await hub.server(decl, settings, () => {})).connection).toBe(connection);
    expect(attempts).toBe(2);

    failures.push(new Error('the server process exited before it answered; it wrote: FIXTURE_CONFIG is missing'));
    const other = new McpHub({ root: '/ws', declarations: () => ({ servers: [], problems: [] }), connect });
    await expect(other.server(decl, settings, () => {})).rejects.toThrow('FIXTURE_CONFIG is missing');
    expect(attempts).toBe(3);
  });
});
