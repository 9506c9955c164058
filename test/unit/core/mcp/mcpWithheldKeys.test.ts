import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { McpServerDecl } from '../../../../src/core/config/mcp/mcpDeclarations';
import { McpHub } from '../../../../src/core/tools/mcp/mcpHub';
import type { McpConnection, McpLaunch } from '../../../../src/core/tools/mcp/mcpTypes';

// Our API keys never reach a server the workspace declared: not by ${env:…}, not by ${…} in
// Claude Code's files, not in headers, not inherited. The launch is run for real (sandbox off) and
// what the process saw is read back.
const KEYS = { OPENAI_API_KEY: 'sk-openai-secret-1', ANTHROPIC_API_KEY: 'sk-ant-secret-2', SUBAGENTS_API_KEY: 'sk-ours-secret-3' };
const env = { ...process.env, ...KEYS, FIXTURE_TOKEN: 'token-from-env' };
const settings = { 'sandbox.mode': 'off' as const, 'sandbox.allowedHosts': [], 'commandEnv.exclude': [] };
const connection: McpConnection = {
  tools: [],
  transport: 'stdio',
  pid: undefined,
  callTool: () => Promise.reject(new Error('unused')),
  close: async () => {},
  onLost: () => () => {},
};

/** A hub whose connect runs the stdio launch as a real process and keeps what it printed. */
function hub() {
  const seen: string[] = [];
  const launches: McpLaunch[] = [];
  const connect = async () => async (launch: McpLaunch) => {
    launches.push(launch);
    if (launch.transport === 'stdio')
      seen.push(execFileSync(launch.file, launch.args, { env: launch.env, cwd: launch.cwd, encoding: 'utf8' }));
    return connection;
  };
  return { hub: new McpHub({ root: process.cwd(), declarations: () => ({ servers: [], problems: [] }), connect, env }), seen, launches };
}
const decl = (over: Partial<McpServerDecl>): McpServerDecl => ({
  name: 'fx',
  origin: 'workspace',
  source: '.mcp.json',
  bareNames: true,
  config: { transport: 'stdio', command: 'sh', args: ['-c', 'env'], env: {} },
  ...over,
});

describe('our API keys and the MCP servers a workspace declares', () => {
  it('refuses, before anything runs, a workspace declaration that names a key: ${env:…}, bare ${…}, any letter case, in args, env or headers', async () => {
    const cases: McpServerDecl[] = [
      decl({ config: { transport: 'stdio', command: 'sh', args: ['-c', 'echo ${env:ANTHROPIC_API_KEY}'], env: {} } }),
      decl({ config: { transport: 'stdio', command: 'sh', args: ['-c', 'env'], env: { TOKEN: '${OPENAI_API_KEY}' } } }),
      decl({ config: { transport: 'stdio', command: 'sh', args: ['-c', 'env'], env: { TOKEN: '${env:subagents_api_key}' } } }),
      decl({
        source: '.vscode/mcp.json',
        bareNames: false,
        config: { transport: 'http', url: 'https://mcp.example/', headers: { Authorization: 'Bearer ${env:OPENAI_API_KEY}' } },
      }),
      decl({
        source: '.claude/agents/x.md',
        profile: 'x',
        config: { transport: 'stdio', command: 'sh', args: ['-c', 'env'], env: { K: '${ANTHROPIC_API_KEY:-none}' } },
      }),
    ];
    for (const bad of cases) {
      const { hub: h, launches } = hub();
      await expect(h.server(bad, settings, () => {})).rejects.toThrow(
        'an API key this product holds, which is never given to a server the workspace declared',
      );
      expect(launches).toEqual([]);
    }
  });

  it('starts a workspace server without our keys in its environment, other variables as before', async () => {
    const { hub: h, seen } = hub();
    await h.server(
      decl({ config: { transport: 'stdio', command: 'sh', args: ['-c', 'env'], env: { GIVEN: '${env:FIXTURE_TOKEN}' } } }),
      settings,
      () => {},
    );
    expect(seen[0]).toContain('GIVEN=token-from-env');
    for (const value of Object.values(KEYS)) expect(seen[0]).not.toContain(value);
  });

  it("lets a server of the user's own settings name a key explicitly (and only that one)", async () => {
    const { hub: h, seen } = hub();
    await h.server(
      decl({
        origin: 'user',
        source: 'user settings',
        config: { transport: 'stdio', command: 'sh', args: ['-c', 'env'], env: { OPENAI_API_KEY: '${env:OPENAI_API_KEY}' } },
      }),
      settings,
      () => {},
    );
    expect(seen[0]).toContain(`OPENAI_API_KEY=${KEYS.OPENAI_API_KEY}`);
    expect(seen[0]).not.toContain(KEYS.ANTHROPIC_API_KEY);
  });
});
