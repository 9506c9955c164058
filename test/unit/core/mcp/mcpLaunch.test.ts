import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../../src/core/config/settings/engineSettings';
import { declareMcpServers, type McpServerDecl } from '../../../../src/core/config/mcp/mcpDeclarations';
import { McpHub } from '../../../../src/core/tools/mcp/mcpHub';
import { PACKAGE_REGISTRY_HOSTS, prepareMcpLaunch, type LaunchContext } from '../../../../src/core/tools/mcp/mcpLaunch';
import { SandboxManager } from '@anthropic-ai/sandbox-runtime';
import { stopSandbox } from '../../../../src/core/access/sandbox/commandLauncher';
import { silentLogger } from '../../../../src/core/ports';

/**
 * MCP servers as their READMEs show them (issue 39, item 10), with the real sandbox: one the user
 * declared starts unsandboxed, as VS Code and Claude Code start it; one the workspace declared
 * starts in the sandbox with the package registries reachable; a sandboxed start that fails says
 * so and names the settings that change it.
 */

vi.setConfig({ testTimeout: 60_000 });

const FIXTURE = join(__dirname, '..', '..', '..', 'fixtures', 'mcp', 'fixtureServer.mjs');
const settings = { ...DEFAULT_SETTINGS, 'sandbox.mode': 'on' as const };

let root: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'subagents-mcp-launch-')));
});
afterEach(() => rm(root, { recursive: true, force: true }));
afterAll(() => stopSandbox(silentLogger));

function declared(where: 'user' | 'workspace', server: Record<string, unknown>, name = 'srv'): McpServerDecl {
  const record = { [name]: server };
  const { servers } = declareMcpServers(
    where === 'user'
      ? { root, trusted: true, user: record, readText: () => undefined }
      : { root, trusted: true, workspace: [{ source: 'workspace settings', value: record }], readText: () => undefined },
  );
  return servers[0]!;
}

const context = (): LaunchContext => ({ root, home: root, env: process.env, settings, warn: () => {} });

/** Runs a prepared stdio launch to its end; its stdout. */
function runLaunch(launch: Awaited<ReturnType<typeof prepareMcpLaunch>>['launch']): string {
  if (launch.transport !== 'stdio') throw new Error('not stdio');
  return spawnSync(launch.file, launch.args, { env: launch.env, cwd: launch.cwd, encoding: 'utf8', timeout: 30_000 }).stdout;
}

describe('where an MCP server starts', () => {
  it('one in the user settings starts as the user would run it: unsandboxed, even with subagents.sandbox.mode "on"', async () => {
    const prepared = await prepareMcpLaunch(declared('user', { command: 'sh', args: ['-c', 'echo "$SANDBOX_RUNTIME"'] }), context());
    expect(prepared.sandboxed).toBe(false);
    expect(prepared.launch).toMatchObject({ transport: 'stdio', file: 'sh' });
    expect(runLaunch(prepared.launch)).toBe('\n');
    prepared.release();
  });

  it('one the workspace declared starts in the sandbox, with the package registries among the hosts its proxy lets through while it runs', async () => {
    const prepared = await prepareMcpLaunch(
      declared('workspace', { command: 'sh', args: ['-c', 'echo "$SANDBOX_RUNTIME"; touch "$TMPDIR/x" && echo temp'] }),
      context(),
    );
    // This machine may have no way out: the proxy's own list says what it lets through (it reads it per request).
    const allowed = () => SandboxManager.getConfig()?.network.allowedDomains ?? [];
    try {
      expect(prepared.sandboxed).toBe(true);
      expect(runLaunch(prepared.launch)).toBe('1\ntemp\n');
      expect(allowed()).toEqual(expect.arrayContaining(PACKAGE_REGISTRY_HOSTS));
    } finally {
      prepared.release();
    }
    // Gone with it: the agents' commands get the hosts of subagents.sandbox.allowedHosts alone.
    expect(allowed()).toEqual([]);
  });

  it('attack: a workspace server in the sandbox cannot write the thread storage in the workspace (the CLI default)', async () => {
    const store = join(root, '.subagents');
    await mkdir(store);
    const script =
      "try { require('fs').writeFileSync('.subagents/index.json', '{}'); console.log('WROTE') } catch (e) { console.log(e.code) }";
    const prepared = await prepareMcpLaunch(declared('workspace', { command: process.execPath, args: ['-e', script] }), {
      ...context(),
      readOnly: [store],
    });
    try {
      expect(runLaunch(prepared.launch)).toMatch(/^E[A-Z]+\n$/);
    } finally {
      prepared.release();
    }
    expect(existsSync(join(store, 'index.json'))).toBe(false);
  });

  it('a workspace server whose start fails in the sandbox says so and names the settings that change it', async () => {
    const hub = new McpHub({
      root,
      declarations: () => ({ servers: [], problems: [] }),
      home: root,
      startTimeoutMs: 20_000,
      logger: silentLogger,
    });
    const decl = declared('workspace', { command: process.execPath, args: [FIXTURE, '--exit-at-start'] });
    try {
      const failure = await hub
        .server(decl, settings, () => {})
        .then(
          () => 'started',
          (error: unknown) => String(error),
        );
      expect(failure).toMatch(/OS sandbox/);
      expect(failure).toContain('subagents.sandbox.allowedHosts');
      expect(failure).toContain('user settings (subagents.mcpServers');
      // The same server from the user's settings is not told about a sandbox it did not run in.
      const userFailure = await hub
        .server(declared('user', { command: process.execPath, args: [FIXTURE, '--exit-at-start'] }, 'mine'), settings, () => {})
        .then(
          () => 'started',
          (error: unknown) => String(error),
        );
      expect(userFailure).not.toMatch(/sandbox/i);
    } finally {
      await hub.stopAll();
    }
  });
});
