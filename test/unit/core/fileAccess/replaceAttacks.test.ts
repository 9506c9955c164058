import { spawn } from 'node:child_process';
import { linkSync, renameSync } from 'node:fs';
import { link, lstat, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { identityOf } from '../../../../src/core/platform/files/fileIdentity';
import { writeInside } from '../../../../src/core/platform/files/writeInside';
import { makeWorld } from '../tools/toolWorld';

/**
 * Attacks on the temp-and-rename write (issue 39 item 1, issue 40 item 7): whatever an agent's
 * command plants in the workspace around a write, nothing outside is written, and a write either
 * lands whole or says it did not.
 */

let world: Awaited<ReturnType<typeof makeWorld>>;
let secret: string;
beforeEach(async () => {
  world = await makeWorld();
  secret = join(world.sibling, 'secret.txt');
});
afterEach(() => world.cleanup());

const at = (rel: string) => join(world.root, rel);
const idOf = async (rel: string) => identityOf(await lstat(at(rel)));
const tempsIn = async (dir: string) => (await readdir(dir)).filter((n) => n.includes('.subagents-'));

describe.skipIf(process.platform === 'win32')('replacing a file through a temp file', () => {
  it('a link planted at the temp name is passed over, never followed', async () => {
    await writeFile(at('a.ts'), 'old');
    await symlink(secret, at('.a.ts.planted'));
    const names = ['.a.ts.planted', '.a.ts.fresh'];
    await writeInside(world.root, at('a.ts'), 'new', await idOf('a.ts'), { tempName: () => names.shift()! });
    expect(await readFile(at('a.ts'), 'utf8')).toBe('new');
    expect(await readFile(secret, 'utf8')).toBe('sibling secret\n');
    expect((await lstat(at('.a.ts.planted'))).isSymbolicLink()).toBe(true);
  });

  it('when every temp name it tries is taken, it gives up, writing nothing', async () => {
    await writeFile(at('a.ts'), 'old');
    await symlink(secret, at('.a.ts.planted'));
    await expect(writeInside(world.root, at('a.ts'), 'new', await idOf('a.ts'), { tempName: () => '.a.ts.planted' })).rejects.toThrow(
      /EEXIST/,
    );
    expect(await readFile(at('a.ts'), 'utf8')).toBe('old');
    expect(await readFile(secret, 'utf8')).toBe('sibling secret\n');
  });

  it('the target swapped for a symlink to outside while the temp file is written: refused, outside untouched, no temp left', async () => {
    await writeFile(at('a.ts'), 'old');
    await symlink(secret, at('link'));
    const swap = (name: string) => {
      renameSync(at('a.ts'), at('a.ts.moved'));
      renameSync(at('link'), at('a.ts'));
      return `.${name}.subagents-test`;
    };
    await expect(writeInside(world.root, at('a.ts'), 'pwned', await idOf('a.ts'), { tempName: swap })).rejects.toThrow(/symbolic link/);
    expect(await readFile(secret, 'utf8')).toBe('sibling secret\n');
    expect(await readFile(at('a.ts.moved'), 'utf8')).toBe('old');
    expect(await tempsIn(world.root)).toEqual([]);
  });

  it('the target swapped for a hard link to a file outside at the same moment: refused, outside untouched', async () => {
    await writeFile(at('a.ts'), 'old');
    const swap = (name: string) => {
      renameSync(at('a.ts'), at('a.ts.moved'));
      linkSync(secret, at('a.ts'));
      return `.${name}.subagents-test`;
    };
    await expect(writeInside(world.root, at('a.ts'), 'pwned', await idOf('a.ts'), { tempName: swap })).rejects.toThrow(/hard link/);
    expect(await readFile(secret, 'utf8')).toBe('sibling secret\n');
    expect(await tempsIn(world.root)).toEqual([]);
  });

  it('a hard link to the target is refused before anything is written', async () => {
    await writeFile(at('a.ts'), 'old');
    await link(at('a.ts'), join(world.sibling, 'second-name.ts'));
    await expect(writeInside(world.root, at('a.ts'), 'pwned', await idOf('a.ts'))).rejects.toThrow(/hard link/);
    expect(await readFile(join(world.sibling, 'second-name.ts'), 'utf8')).toBe('old');
    expect(await tempsIn(world.root)).toEqual([]);
  });

  it('keeps the mode of the file it replaces', async () => {
    await writeFile(at('run.sh'), '#!/bin/sh\necho old\n', { mode: 0o755 });
    await writeFile(at('private.txt'), 'old', { mode: 0o600 });
    await writeInside(world.root, at('run.sh'), '#!/bin/sh\necho new\n', await idOf('run.sh'));
    await writeInside(world.root, at('private.txt'), 'new', await idOf('private.txt'));
    expect((await lstat(at('run.sh'))).mode & 0o777).toBe(0o755);
    expect((await lstat(at('private.txt'))).mode & 0o777).toBe(0o600);
  });

  // A real process swaps the target for a symlink and for a hard link to files outside, as fast as
  // it can, while writes replace it: the swaps land between every check and the rename sometimes.
  const SWAPPER = `
const { renameSync, symlinkSync, linkSync } = require('node:fs');
const [ws, outsideLink, outsideHard] = process.argv.slice(1);
const t = ws + '/t.txt', spare = ws + '/t.real', sym = ws + '/t.sym', hard = ws + '/t.hard';
symlinkSync(outsideLink, sym);
linkSync(outsideHard, hard);
const mv = (a, b) => { try { renameSync(a, b); } catch {} };
process.stdout.write('ready\\n');
// Now and then the regular file stays a moment (up to 2 ms), so some writes get through whole.
const pause = new Int32Array(new SharedArrayBuffer(4));
for (;;) { mv(t, spare); mv(sym, t); mv(t, sym); mv(hard, t); mv(t, hard); mv(spare, t); Atomics.wait(pause, 0, 0, Math.random() * 2); }
`;

  it(
    'a process swapping the target for links to outside during many writes: nothing outside changes, no temp file is left',
    { timeout: 60_000 },
    async () => {
      const outsideLink = join(world.sibling, 'via-symlink.txt');
      const outsideHard = join(world.sibling, 'via-hardlink.txt');
      await writeFile(outsideLink, 'outside 1\n');
      await writeFile(outsideHard, 'outside 2\n');
      await writeFile(at('t.txt'), 'seed');
      const swapper = spawn(process.execPath, ['-e', SWAPPER, world.root, outsideLink, outsideHard], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      await new Promise<void>((resolve) => swapper.stdout.once('data', () => resolve()));
      let written = 0;
      let refused = 0;
      try {
        // Until both outcomes were seen enough (or a bound): the swaps are timed by the machine, not by us.
        for (let i = 0; i < 5000 && (written < 20 || refused < 20); i++) {
          const id = await lstat(at('t.txt')).then(identityOf, () => undefined);
          if (!id) continue;
          await writeInside(world.root, at('t.txt'), `write ${i}`, id).then(
            () => written++,
            () => refused++,
          );
        }
      } finally {
        const exited = new Promise((resolve) => swapper.once('exit', resolve));
        swapper.kill('SIGKILL');
        await exited;
      }
      expect(await readFile(outsideLink, 'utf8')).toBe('outside 1\n');
      expect(await readFile(outsideHard, 'utf8')).toBe('outside 2\n');
      expect(await tempsIn(world.root)).toEqual([]);
      // The race was real: some writes went through and some were refused.
      expect(written).toBeGreaterThan(0);
      expect(refused).toBeGreaterThan(0);
    },
  );
});
