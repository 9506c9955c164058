import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCli } from '../../../scripts/bundles.mjs';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startCli } from './mcpHarness';

// The real CLI, built from the current sources, with real hook scripts in a temporary workspace.
vi.setConfig({ testTimeout: 60_000 });

let buildDir: string;
let cli: string;
let ws: string;

beforeAll(async () => {
  buildDir = await mkdtemp(join(tmpdir(), 'cli-hooks-build-'));
  cli = join(buildDir, 'cli.js');
  await buildCli(buildDir);
}, 60_000);
afterAll(() => rm(buildDir, { recursive: true, force: true }));
beforeEach(async () => {
  ws = await realpath(await mkdtemp(join(tmpdir(), 'cli-hooks-ws-')));
  await mkdir(join(ws, '.claude', 'hooks'), { recursive: true });
  // A guard in Claude Code's format: it logs its stdin (and environment), and blocks every Bash call.
  await writeFile(
    join(ws, '.claude', 'hooks', 'guard.sh'),
    '#!/bin/sh\ncat > "$CLAUDE_PROJECT_DIR/stdin.json"\nenv > "$CLAUDE_PROJECT_DIR/env.txt"\necho "no shell today" >&2\nexit 2\n',
  );
  await chmod(join(ws, '.claude', 'hooks', 'guard.sh'), 0o755);
  await writeFile(
    join(ws, '.claude', 'settings.json'),
    JSON.stringify({
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh' }] }] },
    }),
  );
  const script = {
    agents: { supervisor: [{ toolCalls: [{ tool: 'run_command', input: { command: 'echo ran > ran.txt' } }] }, { text: 'done' }] },
  };
  await writeFile(join(ws, 'script.json'), JSON.stringify(script));
  return () => rm(ws, { recursive: true, force: true });
});

const run = (extra: string[], env: Record<string, string> = {}) =>
  startCli(
    cli,
    ws,
    ['run', '--json', '--approval', 'trust', '--model', 'scripted:script.json', '--storage', join(ws, '.store'), ...extra, 'go'],
    env,
  );
const events = (stdout: string) =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { kind: string; [k: string]: unknown });

describe('hooks through the CLI', () => {
  it('without --allow-hooks the repository hook does not run, and the notice names the flag', async () => {
    const r = await run([]);
    expect(r.code).toBe(0);
    expect(existsSync(join(ws, 'stdin.json'))).toBe(false);
    const notice = events(r.stdout).find((e) => e.kind === 'warning' && e.code === 'hooks');
    expect(String(notice?.message)).toContain('--allow-hooks');
    expect(events(r.stdout).some((e) => e.kind === 'hook.ran')).toBe(false);
  });

  it('with --allow-hooks: exit 2 blocks the command, the model reads the stderr, stdin has Claude Code’s fields, no key in its env', async () => {
    const r = await run(['--allow-hooks'], { OPENAI_API_KEY: 'sk-cli-secret-abcdef123456' });
    expect(r.code).toBe(0);
    expect(existsSync(join(ws, 'ran.txt'))).toBe(false);
    const all = events(r.stdout);
    const finished = all.find((e) => e.kind === 'tool.finished');
    expect(JSON.stringify(finished?.output)).toContain('no shell today');
    expect(all.find((e) => e.kind === 'hook.ran')).toMatchObject({ event: 'PreToolUse', exitCode: 2, decision: 'deny' });
    const stdin = JSON.parse(await readFile(join(ws, 'stdin.json'), 'utf8'));
    expect(stdin).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'echo ran > ran.txt' },
      cwd: ws,
      permission_mode: 'bypassPermissions',
    });
    expect(typeof stdin.session_id).toBe('string');
    expect(await readFile(join(ws, 'env.txt'), 'utf8')).not.toContain('sk-cli-secret');
  });

  it('prints a hook run in the human output', async () => {
    const r = await startCli(cli, ws, [
      'run',
      '--approval',
      'trust',
      '--allow-hooks',
      '--model',
      'scripted:script.json',
      '--storage',
      join(ws, '.store'),
      'go',
    ]);
    expect(r.stderr).toMatch(/hook PreToolUse ".*guard\.sh" exit 2, \d+ ms, deny: no shell today/);
  });
});

describe.skipIf(process.platform !== 'linux')("the user's own hooks through the CLI", () => {
  let home: string;
  let outside: string;
  beforeEach(async () => {
    home = await realpath(await mkdtemp(join(tmpdir(), 'cli-hooks-home-')));
    outside = await realpath(await mkdtemp(join(tmpdir(), 'cli-hooks-outside-')));
    await mkdir(join(home, '.claude'));
    // A logger of the user's own, writing outside the workspace as many do (~/.claude/logs).
    await writeFile(
      join(home, '.claude', 'settings.json'),
      JSON.stringify({
        hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `echo ran >> '${outside}/user-hook'` }] }] },
      }),
    );
    // The workspace tries to let them out itself.
    await mkdir(join(ws, '.vscode'));
    await writeFile(join(ws, '.vscode', 'settings.json'), JSON.stringify({ 'subagents.sandbox.userHooksOutside': true }));
    return async () => {
      for (const dir of [home, outside]) await rm(dir, { recursive: true, force: true });
    };
  });

  it('run in the OS sandbox, the workspace cannot let them out, and --user-hooks-outside-sandbox does', async () => {
    const inside = await run([], { HOME: home });
    expect(inside.code).toBe(0);
    expect(existsSync(join(outside, 'user-hook'))).toBe(false);
    expect(inside.stderr).toMatch(/"subagents\.sandbox\.userHooksOutside" in .*\.vscode\/settings\.json is ignored/);
    const warning = events(inside.stdout).find((e) => e.kind === 'warning' && String(e.message).includes('~/.claude/settings.json'));
    expect(String(warning?.message)).toMatch(/ran in the OS sandbox.*set subagents\.sandbox\.userHooksOutside to true/);

    const outsideRun = await run(['--user-hooks-outside-sandbox'], { HOME: home });
    expect(outsideRun.code).toBe(0);
    expect(await readFile(join(outside, 'user-hook'), 'utf8')).toBe('ran\n');
  });
});
