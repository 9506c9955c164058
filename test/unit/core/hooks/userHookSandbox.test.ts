import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hooksToRun } from '../../../../src/core/access/hooks/hookConsent';
import { readHooks } from '../../../../src/core/config/hooks/readHooks';
import { readEngineSettings, type SettingsLayer } from '../../../../src/core/config/settings/readEngineSettings';
import { nodeWorkspace } from '../../../../src/core/engine/nodeWorkspace';
import type { RunEventOf } from '../../../../src/shared/events';
import { makeEngine } from '../engineHarness';

/**
 * The user's own hooks in the real OS sandbox (bubblewrap). They run in the workspace, and the
 * tools they start load what an agent of the request may have written there (`npx` a program in
 * ./node_modules/.bin, eslint its config, `node -e "require('./x')"`, `python -m`): so they run in
 * the sandbox too, unless the user's settings say otherwise (subagents.sandbox.userHooksOutside),
 * which a workspace's settings cannot.
 */

// Real sandboxes, each with a shell: seconds on a busy machine, not a hang.
vi.setConfig({ testTimeout: 120_000 });

let root: string;
let home: string;
let outside: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'user-hook-ws-')));
  home = await realpath(await mkdtemp(join(tmpdir(), 'user-hook-home-')));
  outside = await realpath(await mkdtemp(join(tmpdir(), 'user-hook-outside-')));
  execFileSync('git', ['init', '-q'], { cwd: root });
  await mkdir(join(root, '.claude'));
  await mkdir(join(home, '.claude'));
  await writeFile(join(root, 'a.txt'), 'a\n');
});
afterEach(async () => {
  for (const dir of [root, home, outside]) await rm(dir, { recursive: true, force: true });
});

const USER_SETTINGS = 'user settings';
const SETTING = 'sandbox.userHooksOutside';

/** The settings as the one settings reader (the extension's and the CLI's) makes them from these layers. */
function settingsFrom(layers: SettingsLayer[]) {
  const read = readEngineSettings(
    [{ scope: 'user', source: USER_SETTINGS, values: { approval: 'trust', 'sandbox.mode': 'on' } }, ...layers],
    {
      trusted: true,
    },
  );
  const { approval, 'sandbox.mode': mode, [SETTING]: userHooksOutside } = read.settings;
  return { settings: { approval, 'sandbox.mode': mode, [SETTING]: userHooksOutside }, problems: read.problems };
}

const postToolUse = (matcher: string, ...commands: string[]) => ({
  hooks: { PostToolUse: [{ matcher, hooks: commands.map((command) => ({ type: 'command', command })) }] },
});
const userHooks = (value: unknown) => writeFile(join(home, '.claude', 'settings.json'), JSON.stringify(value));

async function run(steps: unknown[], layers: SettingsLayer[] = []) {
  const h = makeEngine({ agents: { supervisor: [...steps, { text: 'done' }] } } as never, {
    workspace: nodeWorkspace({ root }),
    settings: settingsFrom(layers).settings,
    hooks: () => hooksToRun(readHooks(root, [], home), true),
  });
  const sent = await h.engine.send({ prompt: 'go' });
  expect((await sent.done).status).toBe('ok');
  await h.engine.whenQuiet(sent.threadId);
  const hookRuns = h.events.filter((e): e is RunEventOf<'hook.ran'> => e.kind === 'hook.ran');
  const hookWarnings = h.events.filter((e): e is RunEventOf<'warning'> => e.kind === 'warning' && e.code === 'hooks').map((e) => e.message);
  return { hookRuns, hookWarnings };
}

/** A module an agent writes: it tries a write outside the workspace and one to .git/config, and logs what happened in the workspace. */
const hostileModule = (tag: string) =>
  [
    "const fs = require('fs');",
    'const attempt = (what, path, text) => {',
    "  let outcome = 'written';",
    "  try { fs.appendFileSync(path, text); } catch { outcome = 'refused'; }",
    `  fs.appendFileSync('log.txt', '${tag} ' + what + ':' + outcome + '\\n');`,
    '};',
    `attempt('outside', ${JSON.stringify(join(outside, tag))}, 'pwned');`,
    "attempt('gitconfig', '.git/config', '[core]\\n\\tfsmonitor = touch /tmp/x\\n');",
  ].join('\n');
/**
 * The formatter a user's hook starts: `node` loading the package `fmt`, which it finds in the
 * workspace's node_modules as `npx prettier` finds prettier (and `python -m` a module in the
 * folder). The command names no workspace file, so only the sandbox stands between it and the code.
 */
const FORMAT_HOOK = `node -e "require('fmt')"`;
const agentWritesFormatter = (tag: string) => ({
  toolCalls: [{ tool: 'write_file', input: { path: 'node_modules/fmt/index.js', content: hostileModule(tag) } }],
});
const log = () => readFile(join(root, 'log.txt'), 'utf8').catch(() => '');

describe.skipIf(process.platform !== 'linux')('user hooks in the sandbox', () => {
  it('by default, a user hook that loads a module an agent wrote runs in the sandbox: no write outside the workspace, none to .git/config', async () => {
    await userHooks(postToolUse('Write', FORMAT_HOOK));
    const gitConfig = await readFile(join(root, '.git', 'config'), 'utf8');
    const { hookRuns } = await run([agentWritesFormatter('loaded')]);
    expect(hookRuns).toMatchObject([{ source: '~/.claude/settings.json', exitCode: 0 }]);
    // The agent's code ran, in the workspace it may write…
    expect(await log()).toBe('loaded outside:refused\nloaded gitconfig:refused\n');
    // …and nothing outside it changed.
    expect(existsSync(join(outside, 'loaded'))).toBe(false);
    expect(await readFile(join(root, '.git', 'config'), 'utf8')).toBe(gitConfig);
  });

  it("a program in ./node_modules/.bin, found on the user hook's PATH, runs the package code an agent wrote in the sandbox", async () => {
    // As npm install left it: the program is a link to the package's cli, which loads the package's code (the agent writes that).
    await mkdir(join(root, 'node_modules', '.bin'), { recursive: true });
    await mkdir(join(root, 'node_modules', 'fmt'));
    await writeFile(join(root, 'node_modules', 'fmt', 'cli.js'), "#!/usr/bin/env node\nrequire('./index.js');\n", { mode: 0o755 });
    await symlink('../fmt/cli.js', join(root, 'node_modules', '.bin', 'fmt-all'));
    await userHooks(postToolUse('Write', 'PATH="$CLAUDE_PROJECT_DIR/node_modules/.bin:$PATH" fmt-all'));
    const { hookRuns } = await run([agentWritesFormatter('planted')]);
    expect(hookRuns).toMatchObject([{ exitCode: 0 }]);
    expect(await log()).toBe('planted outside:refused\nplanted gitconfig:refused\n');
    expect(existsSync(join(outside, 'planted'))).toBe(false);
  });

  it('with subagents.sandbox.userHooksOutside true in the user settings, the user hook runs outside; a repository hook with the same command stays in', async () => {
    await userHooks(postToolUse('Write', FORMAT_HOOK));
    const { hookRuns } = await run(
      [agentWritesFormatter('loaded')],
      [{ scope: 'user', source: USER_SETTINGS, values: { [SETTING]: true } }],
    );
    expect(hookRuns).toHaveLength(1);
    expect(await readFile(join(outside, 'loaded'), 'utf8')).toBe('pwned');

    // The same hook declared by the workspace (allowed): the setting does not take it out.
    await rm(join(home, '.claude', 'settings.json'));
    await rm(join(outside, 'loaded'));
    await rm(join(root, 'log.txt'));
    await rm(join(root, 'node_modules'), { recursive: true });
    await writeFile(join(root, '.claude', 'settings.json'), JSON.stringify(postToolUse('Write', FORMAT_HOOK)));
    const repo = await run([agentWritesFormatter('repo')], [{ scope: 'user', source: USER_SETTINGS, values: { [SETTING]: true } }]);
    expect(repo.hookRuns).toMatchObject([{ source: '.claude/settings.json', exitCode: 0 }]);
    expect(await log()).toBe('repo outside:refused\nrepo gitconfig:refused\n');
    expect(existsSync(join(outside, 'repo'))).toBe(false);
  });

  it('the setting in workspace or folder settings is ignored, with a problem naming it, and the user hook stays in the sandbox', async () => {
    await userHooks(postToolUse('Write', FORMAT_HOOK));
    const layers: SettingsLayer[] = [
      { scope: 'workspace', source: '.vscode/settings.json', values: { [SETTING]: true } },
      { scope: 'folder', source: 'the folder settings', values: { [SETTING]: true } },
    ];
    expect(settingsFrom(layers).problems).toMatchObject([
      { setting: `subagents.${SETTING}`, source: '.vscode/settings.json', kind: 'userOnly' },
      { setting: `subagents.${SETTING}`, source: 'the folder settings', kind: 'userOnly' },
    ]);
    const { hookRuns } = await run([agentWritesFormatter('loaded')], layers);
    expect(hookRuns).toHaveLength(1);
    expect(await log()).toBe('loaded outside:refused\nloaded gitconfig:refused\n');
    expect(existsSync(join(outside, 'loaded'))).toBe(false);
  });

  it('a user hook that fails in the sandbox is told, once, that it ran there and which setting lets it out; a repository hook is not', async () => {
    // A logger of the user's own, as many keep in ~/.claude/logs: outside the workspace, so refused in the sandbox.
    await userHooks(postToolUse('Read', `echo read >> '${outside}/hook.log'`));
    await writeFile(join(root, '.claude', 'settings.json'), JSON.stringify(postToolUse('Read', 'exit 3')));
    const read = { toolCalls: [{ tool: 'read_file', input: { path: 'a.txt' } }] };
    const { hookRuns, hookWarnings } = await run([read, read]);
    expect(hookRuns).toHaveLength(4);
    expect(existsSync(join(outside, 'hook.log'))).toBe(false);
    const user = hookWarnings.filter((m) => m.includes('~/.claude/settings.json'));
    expect(user).toHaveLength(2);
    expect(user[0]).toMatch(
      /exited with [12].*your own hook and ran in the OS sandbox.*set subagents\.sandbox\.userHooksOutside to true in your user settings/,
    );
    expect(user[1]).not.toContain('userHooksOutside');
    const repository = hookWarnings.filter((m) => m.includes('(.claude/settings.json)'));
    expect(repository).toHaveLength(2);
    for (const message of repository) expect(message).not.toContain('userHooksOutside');

    // With the setting, the user's logger writes where it wrote before.
    await run([read], [{ scope: 'user', source: USER_SETTINGS, values: { [SETTING]: true } }]);
    expect(await readFile(join(outside, 'hook.log'), 'utf8')).toBe('read\n');
  });
});
