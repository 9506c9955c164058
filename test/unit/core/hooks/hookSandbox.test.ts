import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hooksToRun } from '../../../../src/core/access/hooks/hookConsent';
import { readHooks } from '../../../../src/core/config/hooks/readHooks';
import type { EngineSettings } from '../../../../src/core/config/settings/engineSettings';
import { nodeWorkspace } from '../../../../src/core/engine/nodeWorkspace';
import type { RunEventOf } from '../../../../src/shared/events';
import { makeEngine } from '../engineHarness';

/**
 * Hooks in the real OS sandbox (bubblewrap): consent covers a hook's declaration and the scripts
 * its command names, not what those source or find on PATH, which an agent of the request can
 * write. Hooks therefore run in the sandbox, like an agent's command (the user's own hooks too:
 * userHookSandbox.test.ts); subagents.sandbox.userHooksOutside lets out only a user's hook that runs
 * no workspace script.
 */

// Real sandboxes, each with a shell: seconds on a busy machine, not a hang.
vi.setConfig({ testTimeout: 120_000 });

const KEY = 'sk-hook-test-secret-0123456789';

let root: string;
let home: string;
let outside: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'hook-sandbox-ws-')));
  home = await realpath(await mkdtemp(join(tmpdir(), 'hook-sandbox-home-')));
  outside = await realpath(await mkdtemp(join(tmpdir(), 'hook-sandbox-outside-')));
  execFileSync('git', ['init', '-q'], { cwd: root });
  await mkdir(join(root, '.claude'), { recursive: true });
  await mkdir(join(root, 'scripts'));
  process.env.ANTHROPIC_API_KEY = KEY;
});
afterEach(async () => {
  delete process.env.ANTHROPIC_API_KEY;
  for (const dir of [root, home, outside]) await rm(dir, { recursive: true, force: true });
});

const calls = (...c: [string, unknown][]) => ({ toolCalls: c.map(([tool, input]) => ({ tool, input })) });
const postToolUse = (matcher: string, command: string) => ({
  hooks: { PostToolUse: [{ matcher, hooks: [{ type: 'command', command }] }] },
});

async function run(steps: unknown[], settings: Partial<EngineSettings> = {}) {
  const h = makeEngine({ agents: { supervisor: [...steps, { text: 'done' }] } } as never, {
    workspace: nodeWorkspace({ root }),
    settings: { approval: 'trust', 'sandbox.mode': 'on', ...settings } as Partial<EngineSettings>,
    hooks: () => hooksToRun(readHooks(root, [], home), true),
  });
  const sent = await h.engine.send({ prompt: 'go' });
  expect((await sent.done).status).toBe('ok');
  await h.engine.whenQuiet(sent.threadId);
  return h;
}

const hookRuns = (h: ReturnType<typeof makeEngine>) => h.events.filter((e): e is RunEventOf<'hook.ran'> => e.kind === 'hook.ran');
const log = () => readFile(join(root, 'log.txt'), 'utf8').catch(() => '');

/** Shell lines that try each way out, and write what happened to log.txt in the workspace. */
const escapeAttempts = (tag: string) =>
  [
    `if echo pwned > '${outside}/${tag}' 2>/dev/null; then echo "${tag} outside:written"; else echo "${tag} outside:refused"; fi >> "$CLAUDE_PROJECT_DIR/log.txt"`,
    `if printf '[core]\\n\\tfsmonitor = touch /tmp/x\\n' >> .git/config 2>/dev/null; then echo "${tag} gitconfig:written"; else echo "${tag} gitconfig:refused"; fi >> "$CLAUDE_PROJECT_DIR/log.txt"`,
    `if echo 'touch /tmp/pwned' > .git/hooks/post-checkout 2>/dev/null; then echo "${tag} githook:written"; else echo "${tag} githook:refused"; fi >> "$CLAUDE_PROJECT_DIR/log.txt"`,
    `env > "$CLAUDE_PROJECT_DIR/${tag}-env.txt"`,
  ].join('\n');

describe.skipIf(process.platform !== 'linux')('repository hooks run in the OS sandbox', () => {
  it('a helper the hook script sources, rewritten by an agent mid-request, runs sandboxed: no write outside, none to .git/config, no keys', async () => {
    await writeFile(join(root, 'scripts', 'after.sh'), '. ./scripts/lib.sh\nfmt\n');
    await writeFile(join(root, 'scripts', 'lib.sh'), 'fmt() { echo formatted; }\n');
    await writeFile(join(root, '.claude', 'settings.json'), JSON.stringify(postToolUse('Write', 'sh scripts/after.sh')));
    const gitConfig = await readFile(join(root, '.git', 'config'), 'utf8');
    // The agent rewrites the helper (an ordinary workspace file, not a script the hook's command names): the hook then sources it.
    const h = await run([calls(['write_file', { path: 'scripts/lib.sh', content: `fmt() {\n${escapeAttempts('sourced')}\n}\n` }])]);
    expect(hookRuns(h)).toHaveLength(1);
    // Its code ran (inside the workspace it may write)…
    expect(await log()).toBe('sourced outside:refused\nsourced gitconfig:refused\nsourced githook:refused\n');
    // …but nothing outside the workspace, nor git's config, changed.
    expect(existsSync(join(outside, 'sourced'))).toBe(false);
    expect(await readFile(join(root, '.git', 'config'), 'utf8')).toBe(gitConfig);
    expect(existsSync(join(root, '.git', 'hooks', 'post-checkout'))).toBe(false);
    const env = await readFile(join(root, 'sourced-env.txt'), 'utf8');
    expect(env).toContain(`CLAUDE_PROJECT_DIR=${root}`);
    expect(env).not.toContain(KEY);
  });

  it('a program an agent planted on a relative PATH entry runs sandboxed', async () => {
    // No script named: the hook is the workspace's (scope "repository"), which is enough.
    await writeFile(join(root, '.claude', 'settings.json'), JSON.stringify(postToolUse('Bash', 'PATH=tools:$PATH fmt-all')));
    const h = await run([
      calls(['write_file', { path: 'tools/fmt-all', content: `#!/bin/sh\n${escapeAttempts('planted')}\n` }]),
      calls(['run_command', { command: 'chmod +x tools/fmt-all' }]),
    ]);
    expect(hookRuns(h)).toHaveLength(1);
    expect(await log()).toBe('planted outside:refused\nplanted gitconfig:refused\nplanted githook:refused\n');
    expect(existsSync(join(outside, 'planted'))).toBe(false);
  });
});

/** Processes of this machine whose command line is exactly these words (a zombie, dead and waiting to be reaped, is not one). */
function running(...words: string[]): number[] {
  const wanted = `${words.join('\0')}\0`;
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8') === wanted && stat[stat.lastIndexOf(')') + 2] !== 'Z';
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe.skipIf(process.platform !== 'linux')('a sandboxed hook that hangs', () => {
  it('is killed at its timeout with what it started, said in a warning, and the run goes on', async () => {
    const marker = `${Math.floor(Math.random() * 1e6) + 1000}.5`;
    await writeFile(join(root, 'scripts', 'hang.sh'), `sleep ${marker} &\necho started >> log.txt\nwait\n`);
    await writeFile(
      join(root, '.claude', 'settings.json'),
      JSON.stringify({
        hooks: { PostToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: 'sh scripts/hang.sh', timeout: 1 }] }] },
      }),
    );
    await writeFile(join(root, 'a.txt'), 'a\n');
    const h = await run([calls(['read_file', { path: 'a.txt' }])]);
    expect(await log()).toBe('started\n');
    expect(hookRuns(h)[0]).toMatchObject({ exitCode: null, decision: 'none' });
    expect(h.events.some((e) => e.kind === 'warning' && e.code === 'hooks' && /timeout of 1 s/.test(e.message))).toBe(true);
    // Its sleep lived in the sandbox's PID namespace, which ends with it.
    await vi.waitFor(() => expect(running('sleep', marker)).toEqual([]), { timeout: 10_000, interval: 100 });
  });
});

describe.skipIf(process.platform !== 'linux')('user hooks with subagents.sandbox.userHooksOutside', () => {
  it('one that runs no workspace file runs outside, as the user wrote it; one that runs a workspace script still runs inside', async () => {
    await mkdir(join(home, '.claude'));
    await writeFile(join(root, 'scripts', 'mine.sh'), `${escapeAttempts('user-script')}\n`);
    await writeFile(
      join(home, '.claude', 'settings.json'),
      JSON.stringify({
        hooks: {
          PostToolUse: [
            { matcher: 'Read', hooks: [{ type: 'command', command: `echo ran > '${outside}/user-hook'` }] },
            { matcher: 'Read', hooks: [{ type: 'command', command: 'sh scripts/mine.sh' }] },
          ],
        },
      }),
    );
    await writeFile(join(root, 'a.txt'), 'a\n');
    const h = await run([calls(['read_file', { path: 'a.txt' }])], { 'sandbox.userHooksOutside': true });
    expect(hookRuns(h)).toHaveLength(2);
    expect(await readFile(join(outside, 'user-hook'), 'utf8')).toBe('ran\n');
    expect(await log()).toBe('user-script outside:refused\nuser-script gitconfig:refused\nuser-script githook:refused\n');
    expect(existsSync(join(outside, 'user-script'))).toBe(false);
  });
});
