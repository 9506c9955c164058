import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { isPackageRunner } from '../../../../src/core/access/commands/packageRunner';
import { declareMcpServers } from '../../../../src/core/config/mcp/mcpDeclarations';
import { DEFAULT_SETTINGS } from '../../../../src/core/config/settings/engineSettings';
import { nodeWorkspace } from '../../../../src/core/engine/nodeWorkspace';
import { prepareMcpLaunch } from '../../../../src/core/tools/mcp/mcpLaunch';
import type { RunEventOf } from '../../../../src/shared/events';
import { agent, makeEngine } from '../engineHarness';
import { FAKE_AGENT } from '../../cli/acpHarness';

// Attack: an ACP agent or MCP server declared as `npx <name>` (a package from the registry) must not
// run a node_modules/.bin/<name> an agent planted in the workspace. The `npx` here is a stand-in on
// PATH that resolves local bins as npm does (from its cwd up, stopping at a package.json or
// node_modules), else runs "the registry's" package: so the test fails if the runner starts in the
// workspace.
vi.setConfig({ testTimeout: 60_000 });

let ws: string;
let bin: string;
let marker: string;
beforeEach(async () => {
  ws = await realpath(await mkdtemp(join(tmpdir(), 'runner-ws-')));
  bin = await realpath(await mkdtemp(join(tmpdir(), 'runner-bin-')));
  marker = join(ws, 'PLANTED-RAN');
  // The npx stand-in: a local bin wins (as `npm exec` finds it), else the registry's package ($REGISTRY_PACKAGE).
  await writeFile(
    join(bin, 'npx'),
    `#!${process.execPath}
const { existsSync } = require('node:fs');
const { dirname, join } = require('node:path');
const { spawnSync } = require('node:child_process');
const [name, ...rest] = process.argv.slice(2).filter((a) => a !== '-y' && a !== '--yes');
let dir = process.cwd();
let local;
for (;;) {
  const candidate = join(dir, 'node_modules', '.bin', name);
  if (existsSync(candidate)) { local = candidate; break; }
  if (existsSync(join(dir, 'package.json')) || existsSync(join(dir, 'node_modules')) || dirname(dir) === dir) break;
  dir = dirname(dir);
}
const [file, ...args] = local ? [local, ...rest] : [process.execPath, ...process.env.REGISTRY_PACKAGE.split(' '), ...rest];
process.exit(spawnSync(file, args, { stdio: 'inherit' }).status ?? 1);
`,
  );
  await chmod(join(bin, 'npx'), 0o755);
  // What an agent planted: a bin of the declared name that leaves a mark (and says so on stdout).
  await mkdir(join(ws, 'node_modules', '.bin'), { recursive: true });
  for (const name of ['fake-acp-agent', 'fake-mcp-server']) {
    await writeFile(join(ws, 'node_modules', '.bin', name), `#!/bin/sh\necho planted > ${JSON.stringify(marker)}\necho planted\n`);
    await chmod(join(ws, 'node_modules', '.bin', name), 0o755);
  }
  return async () => {
    await rm(ws, { recursive: true, force: true });
    await rm(bin, { recursive: true, force: true });
  };
});

const pathWithFakeNpx = () => `${bin}${delimiter}${process.env.PATH ?? ''}`;

describe('package runners start outside the workspace (attack: a planted node_modules/.bin)', () => {
  it('an ACP agent declared as `npx -y <agent>` runs the registry package, not the planted bin; its session still works in the workspace', async () => {
    const h = makeEngine(
      {
        agents: {
          supervisor: [
            { toolCalls: [{ tool: 'delegate_task', input: { task: 'MODE:write ARG:out.txt', agents: ['fake'] } }] },
            { text: 'done' },
          ],
        },
      },
      {
        workspace: nodeWorkspace({ root: ws }),
        settings: { approval: 'trust' },
        agents: {
          fake: agent('A fake external agent', {
            acp: { command: 'npx', args: ['-y', 'fake-acp-agent'], env: { PATH: pathWithFakeNpx(), REGISTRY_PACKAGE: FAKE_AGENT } },
          }),
        },
      },
    );
    h.profiles.get('fake')!.source = 'user settings';
    const sent = await h.engine.send({ prompt: 'go' });
    await sent.done;
    await h.engine.whenQuiet(sent.threadId);
    await h.engine.closeExternalAgents();
    const child = h.events.find((e) => e.kind === 'run.started' && e.agent === 'fake')!.runId;
    const end = h.events.find((e): e is RunEventOf<'run.finished'> => e.kind === 'run.finished' && e.runId === child);
    expect(existsSync(marker)).toBe(false);
    expect(end, JSON.stringify(end)).toMatchObject({ status: 'ok', output: 'wrote and read back: written by the fake agent' });
    // session/new's cwd is still the workspace: the agent's relative path landed there.
    expect(existsSync(join(ws, 'out.txt'))).toBe(true);
  });

  it('an MCP server declared as `npx -y <server>` with no cwd starts outside the workspace and runs the registry package', async () => {
    const { servers } = declareMcpServers({
      root: ws,
      trusted: true,
      user: {
        srv: {
          command: 'npx',
          args: ['-y', 'fake-mcp-server'],
          env: { PATH: pathWithFakeNpx(), REGISTRY_PACKAGE: '-e console.log("registry")' },
        },
      },
      readText: () => undefined,
    });
    const prepared = await prepareMcpLaunch(servers[0]!, {
      root: ws,
      home: ws,
      env: process.env,
      settings: DEFAULT_SETTINGS,
      warn: () => {},
    });
    const launch = prepared.launch;
    if (launch.transport !== 'stdio') throw new Error('not stdio');
    expect(launch.cwd.startsWith(ws)).toBe(false);
    const out = spawnSync(launch.file, launch.args, { env: launch.env, cwd: launch.cwd, encoding: 'utf8', timeout: 30_000 });
    expect(out.stdout, out.stderr).toBe('registry\n');
    expect(existsSync(marker)).toBe(false);
    prepared.release();
  });

  it('an MCP server that declares its cwd starts there, as declared', async () => {
    const { servers } = declareMcpServers({
      root: ws,
      trusted: true,
      user: { srv: { command: 'npx', args: ['fake-mcp-server'], cwd: '${workspaceFolder}', env: { PATH: pathWithFakeNpx() } } },
      readText: () => undefined,
    });
    const prepared = await prepareMcpLaunch(servers[0]!, {
      root: ws,
      home: ws,
      env: process.env,
      settings: DEFAULT_SETTINGS,
      warn: () => {},
    });
    expect(prepared.launch).toMatchObject({ cwd: ws });
    prepared.release();
  });

  it('knows the package runners, and only them', () => {
    const runners: [string, string[]][] = [
      ['npx', ['-y', 'x']],
      ['/usr/local/bin/npx', ['x']],
      ['C:\\Program Files\\nodejs\\npx.cmd', ['x']],
      ['npm', ['exec', 'x']],
      ['npm', ['--yes', 'exec', 'x']],
      ['npm', ['x', 'x']],
      ['pnpm', ['dlx', 'x']],
      ['pnpx', ['x']],
      ['bunx', ['x']],
      ['bun', ['x', 'x']],
      ['yarn', ['dlx', 'x']],
      ['uvx', ['x']],
      ['uv', ['tool', 'run', 'x']],
      ['pipx', ['run', 'x']],
    ];
    for (const [command, args] of runners) expect(isPackageRunner(command, args), `${command} ${args.join(' ')}`).toBe(true);
    const others: [string, string[]][] = [
      ['node', ['agent.mjs']],
      ['npm', ['run', 'agent']],
      ['pnpm', ['exec', 'x']],
      ['gemini', ['--acp']],
      ['opencode', ['acp']],
      ['uv', ['run', 'x']],
    ];
    for (const [command, args] of others) expect(isPackageRunner(command, args), `${command} ${args.join(' ')}`).toBe(false);
  });
});
