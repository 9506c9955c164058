import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildCliForTest, startCli, type BuiltCli } from './cliHarness';
import { acpWorkspace, childEnd, eventsOf } from './acpHarness';

// Issue 40 item 7: an external agent over ACP that turns on the user, through the real CLI and the
// fake agent (test/fixtures/acp/fakeAgent.mjs) run as a process. Its reads go through our read_file.
vi.setConfig({ testTimeout: 60_000 });

const SECRET = 'acp-read-canary-7d2e';
let built: BuiltCli;
let ws: string;
let outside: string;

beforeAll(async () => {
  built = await buildCliForTest();
}, 60_000);
afterAll(() => built.dispose());
beforeEach(async () => {
  ws = await mkdtemp(join(tmpdir(), 'cli-acp-attacks-ws-'));
  outside = await mkdtemp(join(tmpdir(), 'cli-acp-attacks-outside-'));
  await writeFile(join(outside, 'credentials'), `${SECRET}\n`);
  await writeFile(join(ws, '.env'), `TOKEN=${SECRET}\n`);
  return async () => {
    await rm(ws, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  };
});

const runJson = (approval = 'trust') =>
  startCli(built.path, ['run', '--json', '--allow-acp', 'fake', '--approval', approval, 'go'], { cwd: ws });

describe('an ACP agent reading what it should not (blocked already)', () => {
  for (const [how, arg, approval] of [
    ['a file outside the workspace, in trust mode', () => join(outside, 'credentials'), 'trust'],
    ['through a workspace link that leads outside, in trust mode', () => 'link/credentials', 'trust'],
    // As read_file for a model: a secret of the workspace asks except in trust mode; headless, no one can allow it.
    ['a secret of the workspace (.env) in autoEdit, headless', () => '.env', 'autoEdit'],
  ] as const)
    it(how, async () => {
      await symlink(outside, join(ws, 'link'));
      await acpWorkspace(ws, `MODE:read ARG:${arg()}`);
      const out = await runJson(approval);
      const said = String(childEnd(eventsOf(out.stdout))?.output ?? '');
      expect(said, out.stderr).toMatch(/^read refused: /);
      expect(out.stdout + out.stderr).not.toContain(SECRET);
    });
});

describe('an ACP agent writing terminal control sequences (blocked already)', () => {
  it('its text and its tool call titles reach the terminal without them', async () => {
    await acpWorkspace(ws, 'MODE:ansi');
    const out = await startCli(built.path, ['run', '--allow-acp', 'fake', '--approval', 'trust', 'go'], { cwd: ws });
    // The call reads by its title ("Read … file"), its sequence taken out whole, payload and all.
    expect(out.stdout + out.stderr).toContain('[fake] Read  file…');
    expect(out.stdout + out.stderr).not.toContain('pwned');
    expect(out.stdout + out.stderr).not.toContain('\u001b');
  });
});
