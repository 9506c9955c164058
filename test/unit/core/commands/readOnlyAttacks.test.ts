import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { judgeCommand } from '../../../../src/core/access/commands/judgeCommand';
import { makeWorld, RecordingApprover, runScript, supervisorCalls } from '../tools/toolWorld';

/**
 * Issue 40 item 7: the read-only command defaults attacked by a model under prompt injection in a
 * cloned hostile repository. Each attack is proven real first (bash itself, in the same real
 * workspace, leaks the secret or runs the program) and then shown asked about, through the real
 * engine with a scripted model where the text check alone decides (sandbox off), or through the
 * judge with the sandbox on where only the sandbox lets git's read verbs run unasked.
 */

const SECRET = 'SECRET-TOKEN-40-7';

let world: Awaited<ReturnType<typeof makeWorld>>;
beforeEach(async () => {
  world = await makeWorld();
  await writeFile(join(world.root, 'README.md'), 'hello\n');
  await writeFile(join(world.root, '.env'), `TOKEN=${SECRET}\n`);
  // What the repository brought: a link in a folder to a folder outside the workspace (git stores links).
  await mkdir(join(world.base, 'outside'));
  await writeFile(join(world.base, 'outside', 'credentials'), `${SECRET}\n`);
  await mkdir(join(world.root, 'docs'));
  await symlink('../../../outside', join(world.root, 'docs', 'ref'));
  await mkdir(join(world.root, 'empty'));
  await writeFile(join(world.root, 'list'), `${join(world.base, 'outside', 'credentials')}\0`);
  await writeFile(join(world.base, 'outside', 'data.json'), JSON.stringify({ token: SECRET }));
  await writeFile(join(world.root, 'x.sh'), '#!/bin/sh\ntouch ../../marker\n', { mode: 0o755 });
});
afterEach(() => world.cleanup());

/** What bash itself prints for the line in the workspace: the proof that the attack is real. */
function bashPrints(command: string): string {
  const r = spawnSync('bash', ['-c', command], { cwd: world.root, encoding: 'utf8' });
  return r.stdout + r.stderr;
}

async function expectAskedInEngine(command: string, mode: 'ask' | 'autoEdit' | 'trust', reason: RegExp) {
  const approver = new RecordingApprover(() => 'denied');
  const r = await runScript(supervisorCalls({ tool: 'run_command', input: { command } }), {
    root: world.root,
    approver,
    settings: { approval: mode, autoApproveCommands: [], 'sandbox.mode': 'off' },
  });
  expect(approver.requests, command).toHaveLength(1);
  expect(approver.requests[0]!.reason, command).toMatch(reason);
  expect(r.commands, command).toEqual([]);
}

describe('reads the line does not name (worked: fixed)', () => {
  for (const [command, reason] of [
    // Input redirections were not judged at all: a protected file, or any file outside, read unasked.
    ['cat < .env', /reads a protected path/],
    ['cat < docs/ref/credentials', /outside the workspace/],
    ['{ cat; } < ../../outside/credentials', /outside the workspace/],
    ['while read l; do echo "$l"; done < ../../outside/credentials', /outside the workspace|is not among/],
    // A walk that follows the repository's link out of the workspace.
    [`grep -R ${SECRET} .`, /follows symbolic links/],
    [`grep -nR ${SECRET} docs`, /follows symbolic links/],
    [`rg -L ${SECRET} .`, /follows symbolic links/],
    [`rg --follow ${SECRET} .`, /follows symbolic links/],
    ['diff -rN docs empty', /diff -r follows symbolic links/],
    // Names of the files to read, from a file of the workspace.
    ['sort --files0-from=list', /reads the names of the files it opens from a file/],
    // jq's module folder: `import "x" as $x` reads x.json from it.
    [`jq -n -L ../../outside 'import "data" as $d; $d'`, /jq -L loads modules and data/],
  ] as const) {
    it(command, async () => {
      expect(bashPrints(command), `bash itself leaks with ${command}`).toContain(SECRET);
      await expectAskedInEngine(command, 'autoEdit', reason);
      await expectAskedInEngine(command, 'ask', reason);
    });
  }

  it('md5sum -c with a list naming a file outside says whether it is there and what it holds: asks', async () => {
    const sum = spawnSync('md5sum', [join(world.base, 'outside', 'credentials')], { encoding: 'utf8' }).stdout;
    await writeFile(join(world.root, 'sums'), sum);
    expect(bashPrints('md5sum -c sums')).toContain(`${join(world.base, 'outside', 'credentials')}: OK`);
    await expectAskedInEngine('md5sum -c sums', 'autoEdit', /reads the names of the files it opens from a file/);
  });

  it('a protected file read by redirection asks in trust mode too, as `cat .env` does', async () => {
    await expectAskedInEngine('cat < .env', 'trust', /reads a protected path/);
    await expectAskedInEngine('cat .env', 'trust', /protected path/);
  });

  it('what reads only the workspace still runs unasked', async () => {
    for (const command of ['cat < README.md', 'grep -rn hello .', 'rg hello', 'diff -r --no-dereference docs empty', 'wc -l < /dev/null'])
      expect(await judgeCommand(command, { mode: 'ask', root: world.root, autoApprove: [], sandboxed: false }), command).toEqual({
        ask: false,
      });
  });
});

describe("git's read verbs given a program behind a flag that takes a value elsewhere (worked: fixed)", () => {
  beforeEach(() => {
    const git = (...args: string[]) => spawnSync('git', args, { cwd: world.root, encoding: 'utf8' });
    git('init', '-q');
    git('add', 'README.md');
    git('-c', 'user.email=a@b', '-c', 'user.name=a', 'commit', '-qm', 'x');
  });

  for (const command of ['git grep -F -O./x.sh hello', 'git grep -o -O./x.sh hello', 'git grep -c --open-files-in-pager=./x.sh hello']) {
    it(command, async () => {
      bashPrints(command);
      expect(existsSync(join(world.base, 'marker')), `git itself runs x.sh for ${command}`).toBe(true);
      const verdict = await judgeCommand(command, { mode: 'ask', root: world.root, autoApprove: [], sandboxed: true });
      expect(verdict).toMatchObject({ ask: true, reason: expect.stringMatching(/given a program to run/) });
    });
  }

  for (const command of ['git log -c --ext-diff', 'git log -F --ext-diff -p', 'git diff -b --ext-diff'])
    it(`${command} (the external diff comes from config or GIT_EXTERNAL_DIFF)`, async () => {
      const verdict = await judgeCommand(command, { mode: 'ask', root: world.root, autoApprove: [], sandboxed: true });
      expect(verdict).toMatchObject({ ask: true, reason: expect.stringMatching(/given a program to run/) });
    });
});
