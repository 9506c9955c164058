import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hooksToRun } from '../../../../src/core/access/hooks/hookConsent';
import { readHooks } from '../../../../src/core/config/hooks/readHooks';
import type { EngineSettings } from '../../../../src/core/config/settings/engineSettings';
import { nodeWorkspace } from '../../../../src/core/engine/nodeWorkspace';
import type { RunEventOf } from '../../../../src/shared/events';
import { makeEngine } from '../engineHarness';

/**
 * Hooks where no sandbox can start (here: bubblewrap and socat are not on PATH for this test
 * process, as in sandboxUnavailable.test.ts). Mode "on": a hook is not run, and the warning says
 * why and what to do; the user's own hook runs (outside) only if subagents.sandbox.userHooksOutside
 * lets it. Mode "auto": hooks run, and a warning says once that they ran unsandboxed. Mode "off":
 * they run, and nothing is said.
 */

const bin = await mkdtemp(join(tmpdir(), 'subagents-bin-'));
for (const tool of ['which', 'sh', 'bash', 'cat', 'ls'])
  await symlink(`/usr/bin/${tool}`, join(bin, tool)).catch(() => symlink(`/bin/${tool}`, join(bin, tool)));
const savedPath = process.env.PATH;
process.env.PATH = bin;
afterAll(async () => {
  process.env.PATH = savedPath;
  await rm(bin, { recursive: true, force: true });
});

let root: string;
let home: string;
let outside: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'hook-nosandbox-ws-')));
  home = await realpath(await mkdtemp(join(tmpdir(), 'hook-nosandbox-home-')));
  outside = await realpath(await mkdtemp(join(tmpdir(), 'hook-nosandbox-outside-')));
  await mkdir(join(root, '.claude'));
  await mkdir(join(home, '.claude'));
  await writeFile(join(root, 'a.txt'), 'a\n');
  // Shell built-ins only: this process's PATH has no touch.
  await writeFile(
    join(root, '.claude', 'settings.json'),
    JSON.stringify({ hooks: { PostToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: 'echo ran >> hooklog' }] }] } }),
  );
  await writeFile(
    join(home, '.claude', 'settings.json'),
    JSON.stringify({
      hooks: { PostToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: `echo ran >> '${outside}/user-hook'` }] }] },
    }),
  );
});
afterEach(async () => {
  for (const dir of [root, home, outside]) await rm(dir, { recursive: true, force: true });
});

const twoReads = { toolCalls: [{ tool: 'read_file', input: { path: 'a.txt' } }] };

async function run(mode: EngineSettings['sandbox.mode'], userHooksOutside = false) {
  const h = makeEngine({ agents: { supervisor: [twoReads, twoReads, { text: 'done' }] } } as never, {
    workspace: nodeWorkspace({ root }),
    settings: { approval: 'trust', 'sandbox.mode': mode, 'sandbox.userHooksOutside': userHooksOutside } as Partial<EngineSettings>,
    hooks: () => hooksToRun(readHooks(root, [], home), true),
  });
  const sent = await h.engine.send({ prompt: 'go' });
  expect((await sent.done).status).toBe('ok');
  await h.engine.whenQuiet(sent.threadId);
  const hookWarnings = h.events.filter((e): e is RunEventOf<'warning'> => e.kind === 'warning' && e.code === 'hooks').map((e) => e.message);
  return { h, hookWarnings };
}

describe.skipIf(process.platform !== 'linux')('hooks without a sandbox', () => {
  it('"on": neither the repository\'s hook nor the user\'s runs, each said once with why and what to do', async () => {
    const { hookWarnings } = await run('on');
    expect(existsSync(join(root, 'hooklog'))).toBe(false);
    expect(existsSync(join(outside, 'user-hook'))).toBe(false);
    expect(hookWarnings).toHaveLength(2);
    const [repository, user] = [
      hookWarnings.find((m) => m.includes('(.claude/settings.json)')),
      hookWarnings.find((m) => m.includes('(~/.claude')),
    ];
    expect(repository).toMatch(
      /The PostToolUse hook "echo ran >> hooklog" \(\.claude\/settings\.json\) was not run: .*must run in the OS sandbox \(subagents\.sandbox\.mode is "on"\), but it cannot start here: .*bubblewrap.*Install bubblewrap.*"auto"/,
    );
    // The setting could not let a repository hook out: it is not offered there.
    expect(repository).not.toContain('userHooksOutside');
    expect(user).toMatch(
      /\(~\/\.claude\/settings\.json\) was not run: .*must run in the OS sandbox.*set subagents\.sandbox\.userHooksOutside to true in your user settings/,
    );
  });

  it('"on" with subagents.sandbox.userHooksOutside: the user\'s own hook runs outside, the repository\'s still does not', async () => {
    const { hookWarnings } = await run('on', true);
    expect(await readFile(join(outside, 'user-hook'), 'utf8')).toBe('ran\nran\n');
    expect(existsSync(join(root, 'hooklog'))).toBe(false);
    expect(hookWarnings).toHaveLength(1);
    expect(hookWarnings[0]).toMatch(/"echo ran >> hooklog" \(\.claude\/settings\.json\) was not run/);
  });

  it('"auto": both hooks run, and a warning says once that hooks ran without the sandbox', async () => {
    const { hookWarnings } = await run('auto');
    expect(await readFile(join(root, 'hooklog'), 'utf8')).toBe('ran\nran\n');
    expect(await readFile(join(outside, 'user-hook'), 'utf8')).toBe('ran\nran\n');
    expect(hookWarnings).toHaveLength(1);
    expect(hookWarnings[0]).toMatch(/\) ran without the OS sandbox: .*bubblewrap.*as you/);

    // The user's own hook alone is said to have run without it too.
    await rm(join(root, '.claude', 'settings.json'));
    const alone = await run('auto');
    expect(alone.hookWarnings).toHaveLength(1);
    expect(alone.hookWarnings[0]).toMatch(/\(~\/\.claude\/settings\.json\) ran without the OS sandbox: .*bubblewrap/);
  });

  it("\"off\": both hooks run and nothing is said; the user's starts as the repository's does, with git's launchers off", async () => {
    // What git the hook runs would find in .git/config (fsmonitor, hooksPath), an agent's unsandboxed command may have written.
    const gitHardened = `case "$GIT_CONFIG_COUNT" in ''|0) echo plain;; *) echo hardened;; esac >> '${outside}/user-hook'`;
    await writeFile(
      join(home, '.claude', 'settings.json'),
      JSON.stringify({ hooks: { PostToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: gitHardened }] }] } }),
    );
    const { hookWarnings } = await run('off');
    expect(await readFile(join(root, 'hooklog'), 'utf8')).toBe('ran\nran\n');
    expect(await readFile(join(outside, 'user-hook'), 'utf8')).toBe('hardened\nhardened\n');
    expect(hookWarnings).toEqual([]);
  });
});
