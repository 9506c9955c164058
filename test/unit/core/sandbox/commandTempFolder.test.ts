import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../../src/core/config/settings/engineSettings';
import { commandLauncher } from '../../../../src/core/access/sandbox/commandLauncher';
import { runCommands } from './sandboxHarness';

/**
 * Each sandboxed command's own temp folder (src/core/access/sandbox/commandTempFolder.ts), with the real
 * sandbox: test runners that write temp files run, the folder is the command's alone, and its
 * clean-up deletes nothing outside it whatever the command left there.
 */

// Real sandboxes, and a real vitest run inside one: tens of seconds on a busy machine, not a hang.
vi.setConfig({ testTimeout: 180_000 });

let base: string;
let root: string;
beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'subagents-tmpdir-')));
  root = join(base, 'ws');
  await mkdir(root);
});
afterEach(() => rm(base, { recursive: true, force: true }));

describe('test runners in the sandbox', () => {
  it('a real vitest suite passes through run_command', async () => {
    await writeFile(join(root, 'package.json'), '{ "name": "tiny", "type": "module", "private": true }\n');
    await writeFile(join(root, 'sum.js'), 'export const sum = (a, b) => a + b;\n');
    await writeFile(
      join(root, 'sum.test.js'),
      [
        "import { writeFileSync, readFileSync } from 'node:fs';",
        "import { tmpdir } from 'node:os';",
        "import { join } from 'node:path';",
        "import { expect, test } from 'vitest';",
        "import { sum } from './sum.js';",
        "test('adds', () => expect(sum(2, 3)).toBe(5));",
        "test('writes a temp file', () => { const f = join(tmpdir(), 'x.txt'); writeFileSync(f, 'ok'); expect(readFileSync(f, 'utf8')).toBe('ok'); });",
        '',
      ].join('\n'),
    );
    await symlink(realpathSync(join(process.cwd(), 'node_modules')), join(root, 'node_modules'));
    const { outputs, changed } = await runCommands(root, ['./node_modules/.bin/vitest run --reporter=verbose sum.test.js 2>&1']);
    expect(outputs[0]!.output).toMatch(/2 passed/);
    expect(outputs[0]).toMatchObject({ exitCode: 0 });
    // Its temp files are not the workspace's changes.
    expect(changed.map((c) => c.path)).toEqual([]);
  });

  it('a python unittest suite that uses tempfile passes', async () => {
    await writeFile(
      join(root, 'test_temp.py'),
      [
        'import os, tempfile, unittest',
        'class T(unittest.TestCase):',
        '    def test_file(self):',
        '        with tempfile.NamedTemporaryFile("w", delete=False) as f: f.write("ok")',
        '        self.assertEqual(open(f.name).read(), "ok")',
        // Without a writable temp folder Python falls back to the working folder: the workspace.
        '    def test_not_in_workspace(self):',
        '        self.assertFalse(tempfile.gettempdir().startswith(os.getcwd()), tempfile.gettempdir())',
        '    def test_dir(self):',
        '        with tempfile.TemporaryDirectory() as d: open(os.path.join(d, "x"), "w").write("x")',
        'unittest.main()',
        '',
      ].join('\n'),
    );
    const { outputs } = await runCommands(root, ['python3 -B test_temp.py 2>&1']);
    expect(outputs[0]!.output).toMatch(/Ran 3 tests[\s\S]*OK/);
    expect(outputs[0]).toMatchObject({ exitCode: 0 });
  });
});

describe('the temp folder', () => {
  it('is a new private folder per command, outside the workspace, with a neutral name, in TMPDIR, TMP and TEMP, and removed after', async () => {
    const show = 'echo "$TMPDIR|$TMP|$TEMP"; stat -c %a "$TMPDIR"; touch "$TMPDIR/made" && echo writable';
    const { outputs } = await runCommands(root, [show, show]);
    const folders = outputs.map((o) => {
      const [vars, mode, writable] = o.output.trim().split('\n');
      const [tmp, tmp2, temp] = vars!.split('|');
      expect(tmp2).toBe(tmp);
      expect(temp).toBe(tmp);
      expect(mode).toBe('700');
      expect(writable).toBe('writable');
      return tmp!;
    });
    expect(folders[0]).not.toBe(folders[1]);
    for (const folder of folders) {
      expect(folder).not.toMatch(/claude/i);
      expect(folder.startsWith(root)).toBe(false);
      expect(existsSync(folder)).toBe(false);
    }
  });

  it('attack: links a command plants in it to a file and a folder outside are removed as links; their targets stay', async () => {
    const outside = join(base, 'outside');
    await mkdir(join(outside, 'keep'), { recursive: true });
    await writeFile(join(outside, 'file.txt'), 'precious\n');
    await writeFile(join(outside, 'keep', 'inner.txt'), 'precious\n');
    // Code the judge cannot read (an attacker's), so only the clean-up stands between it and `outside`.
    const script = [
      "const fs = require('fs'), t = process.env.TMPDIR, o = Buffer.from(process.argv[1], 'base64').toString();",
      "fs.symlinkSync(o + '/file.txt', t + '/file-link'); fs.symlinkSync(o + '/keep', t + '/dir-link');",
      "fs.mkdirSync(t + '/sub'); fs.symlinkSync(o, t + '/sub/up');",
      // A folder it made unwritable (as module caches are) still goes.
      "fs.mkdirSync(t + '/ro/deep', { recursive: true }); fs.writeFileSync(t + '/ro/deep/f', 'x'); fs.chmodSync(t + '/ro/deep', 0o555); fs.chmodSync(t + '/ro', 0o555);",
      'console.log(t);',
    ].join(' ');
    await writeFile(join(root, 'plant.js'), script);
    const plant = `node plant.js ${Buffer.from(outside).toString('base64')}`;
    const { outputs } = await runCommands(root, [plant]);
    expect(outputs[0]).toMatchObject({ exitCode: 0 });
    const folder = outputs[0]!.output.trim();
    expect(existsSync(folder)).toBe(false);
    expect(await readFile(join(outside, 'file.txt'), 'utf8')).toBe('precious\n');
    expect(await readFile(join(outside, 'keep', 'inner.txt'), 'utf8')).toBe('precious\n');
  });

  it('attack: a command cannot write in another command’s temp folder, running or gone', async () => {
    const launcher = commandLauncher(root, { ...DEFAULT_SETTINGS, 'sandbox.mode': 'on' }, () => {});
    expect(await launcher.state()).toEqual({ sandboxed: true });
    const first = await launcher.prepare('true', { sandboxed: true, hardenGit: false });
    const firstFolder = first.launch.env.TMPDIR!;
    expect(existsSync(firstFolder)).toBe(true);
    const second = await launcher.prepare(
      `echo planted > ${firstFolder}/x 2>/dev/null && echo WROTE; ls -a ${firstFolder}; echo "$TMPDIR"`,
      { sandboxed: true, hardenGit: false },
    );
    try {
      const ran = spawnSync(second.launch.file, second.launch.args, { env: second.launch.env, cwd: root, encoding: 'utf8' });
      expect(ran.stdout).not.toContain('WROTE');
      expect(ran.stdout.trim().split('\n').pop()).not.toBe(firstFolder);
      expect(existsSync(join(firstFolder, 'x'))).toBe(false);
    } finally {
      await second.release();
      await first.release();
    }
    expect(existsSync(firstFolder)).toBe(false);
    // Gone is gone: a later command naming it makes it at most in the empty stand-in that hides the
    // other commands' folders from it, which goes with the command; nothing appears on the machine.
    const { outputs } = await runCommands(root, [`mkdir -p ${firstFolder} 2>/dev/null; echo planted > ${firstFolder}/x; echo end`]);
    expect(outputs[0]!.output).toContain('end\n');
    expect(existsSync(firstFolder)).toBe(false);
  });

  it('attack: a command cannot list or read the temp folder of another command running beside it (worked: fixed)', async () => {
    const launcher = commandLauncher(root, { ...DEFAULT_SETTINGS, 'sandbox.mode': 'on' }, () => {});
    const first = await launcher.prepare('true', { sandboxed: true, hardenGit: false });
    const firstFolder = first.launch.env.TMPDIR!;
    // What the first command keeps there: a test runner's fixtures, a token a script wrote for itself.
    await writeFile(join(firstFolder, 'token'), 'FIRST-COMMAND-SECRET\n');
    const second = await launcher.prepare(`ls -a "$(dirname "$TMPDIR")"; cat ${firstFolder}/token; echo "mine: $TMPDIR"`, {
      sandboxed: true,
      hardenGit: false,
    });
    try {
      const ran = spawnSync(second.launch.file, second.launch.args, { env: second.launch.env, cwd: root, encoding: 'utf8' });
      expect(ran.stdout).toContain(`mine: ${second.launch.env.TMPDIR!}`);
      expect(ran.stdout).not.toContain('FIRST-COMMAND-SECRET');
      expect(ran.stdout).not.toContain(firstFolder.split('/').pop());
      // Its own folder is still its own: listed, and writable as before.
      expect(ran.stdout).toContain(second.launch.env.TMPDIR!.split('/').pop());
    } finally {
      await second.release();
      await first.release();
    }
  });
});

describe('the clean-up of folders that killed processes left', () => {
  it('attack: a name planted in the temp folder like a dead process’s folder, as a link or holding links, removes no target', async () => {
    const { removeFoldersOfEndedProcesses } = await import('../../../../src/core/access/sandbox/deadProcessLeftovers');
    const temp = join(base, 'tmp');
    const outside = join(base, 'outside');
    await mkdir(join(outside, 'keep'), { recursive: true });
    await writeFile(join(outside, 'keep', 'inner.txt'), 'precious\n');
    const dead = spawnSync('true').pid!;
    await mkdir(join(temp, `subagents-cmd-${dead}-held`), { recursive: true });
    await symlink(outside, join(temp, `subagents-cmd-${dead}-link`));
    await symlink(join(outside, 'keep'), join(temp, `subagents-cmd-${dead}-held`, 'up'));
    removeFoldersOfEndedProcesses(temp, 'subagents-cmd-');
    expect(existsSync(join(temp, `subagents-cmd-${dead}-link`))).toBe(false);
    expect(existsSync(join(temp, `subagents-cmd-${dead}-held`))).toBe(false);
    expect(await readFile(join(outside, 'keep', 'inner.txt'), 'utf8')).toBe('precious\n');
  });
});
