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
 * process, as in sandboxUnavailable.test.ts). Mode "on": a repository hook is not run, and the
 * warning says why and what to do. Mode "auto": it runs, and a warning says once that it ran
 * unsandboxed. A user's own hook runs either way.
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

async function run(mode: EngineSettings['sandbox.mode']) {
  const h = makeEngine({ agents: { supervisor: [twoReads, twoReads, { text: 'done' }] } } as never, {
    workspace: nodeWorkspace({ root }),
    settings: { approval: 'trust', 'sandbox.mode': mode } as Partial<EngineSettings>,
    hooks: () => hooksToRun(readHooks(root, [], home), true),
  });
  const sent = await h.engine.send({ prompt: 'go' });
  expect((await sent.done).status).toBe('ok');
  await h.engine.whenQuiet(sent.threadId);
  const hookWarnings = h.events.filter((e): e is RunEventOf<'warning'> => e.kind === 'warning' && e.code === 'hooks').map((e) => e.message);
  return { h, hookWarnings };
}

describe.skipIf(process.platform !== 'linux')('hooks without a sandbox', () => {
  it('"on": a repository hook is not run, said once with why and what to do; the user\'s own hook runs', async () => {
    const { hookWarnings } = await run('on');
    expect(existsSync(join(root, 'hooklog'))).toBe(false);
    expect(hookWarnings).toHaveLength(1);
    expect(hookWarnings[0]).toMatch(
      /The PostToolUse hook "echo ran >> hooklog" \(\.claude\/settings\.json\) was not run: .*must run in the OS sandbox \(subagents\.sandbox\.mode is "on"\), but it cannot start here: .*bubblewrap.*Install bubblewrap.*"auto"/,
    );
    expect(await readFile(join(outside, 'user-hook'), 'utf8')).toBe('ran\nran\n');
  });

  it('"auto": a repository hook runs, and a warning says once that it ran without the sandbox', async () => {
    const { hookWarnings } = await run('auto');
    expect(await readFile(join(root, 'hooklog'), 'utf8')).toBe('ran\nran\n');
    expect(hookWarnings).toHaveLength(1);
    expect(hookWarnings[0]).toMatch(/"echo ran >> hooklog" \(\.claude\/settings\.json\) ran without the OS sandbox: .*bubblewrap.*as you/);
  });
});
