import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EngineSettings } from '../../../../src/core/config/settings/engineSettings';
import type { CommandResult } from '../../../../src/core/ports';
import { makeWorld, runScript, snapshot, supervisorCalls, type CommandInterceptor } from '../tools/toolWorld';

/**
 * Agents' commands in the real OS sandbox (bubblewrap here; CI installs it with socat and
 * ripgrep): commands that hide what they do from the judge (inline code, trust mode) still
 * cannot write protected or outside files, read the home folder's secrets, reach the network or
 * outlive their main process. The home folder is a temp one with fake secrets in it.
 */

// Each case starts real sandboxes (bubblewrap, a shell, often node): seconds on a busy machine, not a hang.
vi.setConfig({ testTimeout: 60_000 });

const home = await mkdtemp(join(tmpdir(), 'subagents-home-'));
process.env.HOME = home;
await mkdir(join(home, '.ssh'));
await writeFile(join(home, '.ssh', 'id_rsa'), 'SECRET-SSH-KEY\n');
await mkdir(join(home, '.aws'));
await writeFile(join(home, '.aws', 'credentials'), 'SECRET-AWS\n');
await mkdir(join(home, '.config', 'gh'), { recursive: true });
await writeFile(join(home, '.config', 'gh', 'hosts.yml'), 'SECRET-GH\n');
afterAll(() => rm(home, { recursive: true, force: true }));

let world: Awaited<ReturnType<typeof makeWorld>>;
beforeEach(async () => {
  world = await makeWorld();
  await writeFile(join(world.root, 'package.json'), '{}\n');
  await mkdir(join(world.root, '.vscode'));
  await writeFile(join(world.root, '.vscode', 'settings.json'), '{}\n');
  await mkdir(join(world.root, '.git', 'hooks'), { recursive: true });
  await writeFile(join(world.root, '.git', 'config'), '[core]\n');
});
afterEach(() => world.cleanup());

async function run(command: string, settings: Partial<EngineSettings> = {}, root = world.root) {
  const r = await runScript(supervisorCalls({ tool: 'run_command', input: { command, timeoutMs: 60_000 } }), {
    root,
    settings: { approval: 'trust', 'sandbox.mode': 'on', ...settings },
  });
  return { result: r.toolResults('run_command')[0] as { exitCode?: number; output: string; error?: string }, r };
}

/** A node one-liner the judge cannot read (inline code), so only the sandbox stands between it and the disk. */
const nodeWrite = (path: string) =>
  `node -e "try { require('fs').writeFileSync(${JSON.stringify(path).replace(/"/g, "'")}, 'pwned'); console.log('WROTE') } catch (e) { console.log(e.code) }"`;

describe('a sandbox that did not set up', () => {
  const refused: CommandResult = {
    exitCode: 1,
    output: "bwrap: Can't create file at /ws/.claude/commands: Read-only file system\n",
    cutChars: 0,
    timedOut: false,
    cancelled: false,
  };

  it('runs the command once more (bubblewrap refused before anything ran); a command that failed by itself is not run again', async () => {
    let first = true;
    const once: CommandInterceptor = async (request, pass) => {
      if (!first) return pass(request);
      first = false;
      return refused;
    };
    const retried = await runScript(supervisorCalls({ tool: 'run_command', input: { command: 'echo inside' } }), {
      root: world.root,
      settings: { approval: 'trust', 'sandbox.mode': 'on' },
      interceptCommand: once,
    });
    expect(retried.toolResults('run_command')[0]).toMatchObject({ exitCode: 0, output: 'inside\n' });
    expect(retried.commands).toHaveLength(2);

    const failing = await runScript(supervisorCalls({ tool: 'run_command', input: { command: 'echo failing >&2; exit 3' } }), {
      root: world.root,
      settings: { approval: 'trust', 'sandbox.mode': 'on' },
    });
    expect(failing.toolResults('run_command')[0]).toMatchObject({ exitCode: 3, output: 'failing\n' });
    expect(failing.commands).toHaveLength(1);
  });
});

describe('the sandbox starts here', () => {
  it('is available (install bubblewrap, socat and ripgrep if this fails)', async () => {
    const { result } = await run('echo inside');
    expect(result.error).toBeUndefined();
    expect(result.output).toBe('inside\n');
  });
});

describe('files', () => {
  it('the workspace is writable, its protected entries and everything outside are not, and nothing is left behind', async () => {
    const before = await snapshot(world.base);
    const targets = [
      '.vscode/settings.json',
      '.git/hooks/pre-commit',
      '.git/config',
      'package.json',
      '.mcp.json',
      '.claude/agents/x.md',
      join(world.sibling, 'secret.txt'),
      join(world.base, 'marker'),
    ];
    for (const target of targets) {
      const { result } = await run(nodeWrite(target));
      expect(result.output, target).toMatch(/^E[A-Z]+\n$/);
    }
    const { result } = await run(nodeWrite('ok.txt'));
    expect(result.output).toContain('WROTE');
    expect(await snapshot(world.base)).toEqual({ ...before, 'a/ws/ok.txt': 'pwned' });
  });

  it('missing protected paths stay uncreatable, and their placeholders do not trip git (git add -A works)', async () => {
    const repo = join(world.root, 'repo');
    await mkdir(repo);
    await writeFile(join(repo, 'a.txt'), 'a\n');
    const identity = 'GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@example.com GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@example.com';
    const { result } = await run(
      `git init -q && git add -A && git status --porcelain && ${identity} git commit -qm x && echo committed`,
      {},
      repo,
    );
    expect(result).toMatchObject({ exitCode: 0, output: 'A  a.txt\ncommitted\n' });
    for (const missing of ['.vscode', '.mcp.json', '.claude']) {
      const { result: written } = await run(nodeWrite(missing), {}, repo);
      expect(written.output, missing).toMatch(/EEXIST|EROFS|EACCES|EISDIR|EPERM|ENOTDIR/);
    }
  });

  it('the home folder keeps its secrets', async () => {
    const { result } = await run('cat ~/.ssh/id_rsa ~/.aws/credentials ~/.config/gh/hosts.yml; ls -a ~/.ssh');
    expect(result.output).not.toMatch(/SECRET/);
    expect(result.output).not.toContain('id_rsa\n');
  });
});

describe('network', () => {
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    server = createServer((_, res) => res.end('REACHED'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('is closed unless subagents.sandbox.allowedHosts lists the host', async () => {
    // sandbox-runtime starts its proxy bridge (socat) beside the command: retried if the first connect beats it.
    const curl = `curl -s -m 10 --retry 3 --retry-connrefused --noproxy '' http://127.0.0.1:${port}/; curl -s -m 10 http://127.0.0.1:${port}/; echo end`;
    expect((await run(curl)).result.output).not.toContain('REACHED');
    expect((await run(curl, { 'sandbox.allowedHosts': [`127.0.0.1:${port}`] })).result.output).toContain('REACHED');
  });
});

describe('processes', () => {
  it('a background job does not hold the tool, and setsid cannot leave the PID namespace', async () => {
    const marker = `301.${process.pid}${Date.now() % 1000}`;
    const { result } = await run(`sleep 300 & setsid sleep ${marker} & echo started`);
    expect(result).toMatchObject({ exitCode: 0, output: 'started\n' });
    await vi.waitFor(() => expect(processesWithArg(marker)).toEqual([]), { timeout: 5000, interval: 20 });
  });
});

describe('environment', () => {
  it('commands never see the product keys or the excluded variables, sandboxed or not', async () => {
    const canaries = {
      OPENAI_API_KEY: 'canary-openai-1234',
      ANTHROPIC_API_KEY: 'canary-anthropic-1234',
      SUBAGENTS_API_KEY: 'canary-subagents-1234',
      MY_SECRET_THING: 'canary-mine-1234',
    };
    Object.assign(process.env, canaries);
    try {
      for (const mode of ['on', 'off'] as const) {
        const { result } = await run('printenv', { 'sandbox.mode': mode, 'commandEnv.exclude': ['MY_*'] });
        expect(result.output).toContain('PATH=');
        for (const value of Object.values(canaries)) expect(result.output, mode).not.toContain(value);
      }
    } finally {
      for (const name of Object.keys(canaries)) delete process.env[name];
    }
  });
});

/** Live processes (not zombies) with this exact argument. */
function processesWithArg(arg: string): number[] {
  const found: number[] = [];
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(arg)) continue;
      if (!readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.startsWith('Z')) found.push(Number(pid));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}
