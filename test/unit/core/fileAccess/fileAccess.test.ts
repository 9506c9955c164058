import { spawnSync } from 'node:child_process';
import { link, lstat, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { identityOf } from '../../../../src/core/platform/files/fileIdentity';
import { readInside } from '../../../../src/core/platform/files/readInside';
import { verifyJudgedFile } from '../../../../src/core/platform/files/verifyJudgedFile';
import { writeInside } from '../../../../src/core/platform/files/writeInside';
import { makeWorld, snapshot } from '../tools/toolWorld';

let world: Awaited<ReturnType<typeof makeWorld>>;
beforeEach(async () => {
  world = await makeWorld();
});
afterEach(() => world.cleanup());

const at = (rel: string) => join(world.root, rel);
const idOf = async (rel: string) => identityOf(await lstat(at(rel)));

describe.skipIf(process.platform === 'win32')('writeInside', () => {
  it('creates a new file and its folders, and replaces a judged file whole, keeping its mode', async () => {
    await writeInside(world.root, at('a/b/new.txt'), 'new', null);
    expect(await readFile(at('a/b/new.txt'), 'utf8')).toBe('new');
    await writeFile(at('run.sh'), '#!/bin/sh\necho a long old body\n', { mode: 0o755 });
    await writeInside(world.root, at('run.sh'), 'short', await idOf('run.sh'));
    expect(await readFile(at('run.sh'), 'utf8')).toBe('short');
    expect((await lstat(at('run.sh'))).mode & 0o777).toBe(0o755);
  });

  it('refuses, writing nothing, what is no longer the file that was judged', async () => {
    await writeFile(at('x.txt'), 'x');
    const judged = await idOf('x.txt');
    await writeFile(at('other.txt'), 'other');
    await symlink(join(world.sibling, 'secret.txt'), at('to-outside.txt'));
    await mkdir(at('real'));
    await symlink(world.sibling, at('folder-link'));
    await link(join(world.sibling, 'secret.txt'), at('hard.txt'));
    const before = await snapshot(world.base);
    // Replaced by another file since the check.
    await expect(writeInside(world.root, at('other.txt'), 'p', judged)).rejects.toThrow(/replaced by another file/);
    // Judged new, but it exists now.
    await expect(writeInside(world.root, at('x.txt'), 'p', null)).rejects.toThrow(/appeared since/);
    // A link as the file, or on the way, is never followed.
    await expect(writeInside(world.root, at('to-outside.txt'), 'p', judged)).rejects.toThrow(/symbolic link/);
    await expect(writeInside(world.root, at('folder-link/secret.txt'), 'p', judged)).rejects.toThrow(
      /"folder-link" on the way is a symbolic link/,
    );
    await expect(writeInside(world.root, at('folder-link/new.txt'), 'p', null)).rejects.toThrow(
      /"folder-link" on the way is a symbolic link/,
    );
    await expect(writeInside(world.root, at('hard.txt'), 'p', await idOf('hard.txt'))).rejects.toThrow(/hard link/);
    await expect(writeInside(world.root, join(world.sibling, 'secret.txt'), 'p', null)).rejects.toThrow(/not a file inside the workspace/);
    expect(await snapshot(world.base)).toEqual(before);
  });
});

describe.skipIf(process.platform === 'win32')('readInside and verifyJudgedFile', () => {
  it('reads regular files only, and a named pipe is refused without blocking', async () => {
    await writeFile(at('a.txt'), 'text');
    expect(await readInside(world.root, at('a.txt'))).toBe('text');
    expect(spawnSync('mkfifo', [at('pipe')]).status).toBe(0);
    await expect(readInside(world.root, at('pipe'))).rejects.toThrow(/named pipe \(FIFO\); only regular files can be read/);
    await symlink(world.sibling, at('out'));
    await expect(readInside(world.root, at('out/secret.txt'))).rejects.toThrow(/"out" on the way is a symbolic link/);
  });

  it('verifies an open file right before the editor writes it', async () => {
    await writeFile(at('a.txt'), 'a');
    const judged = await idOf('a.txt');
    await expect(verifyJudgedFile(world.root, at('a.txt'), judged)).resolves.toBeUndefined();
    await link(at('a.txt'), at('second-name.txt'));
    await expect(verifyJudgedFile(world.root, at('a.txt'), judged)).rejects.toThrow(/hard link/);
    await writeFile(at('b.txt'), 'b');
    await expect(verifyJudgedFile(world.root, at('b.txt'), judged)).rejects.toThrow(/replaced/);
    await mkdir(at('d'));
    await writeFile(at('d/c.txt'), 'c');
    const c = await idOf('d/c.txt');
    await symlink('d', at('e'));
    await expect(verifyJudgedFile(world.root, at('e/c.txt'), c)).rejects.toThrow(/leads elsewhere/);
  });
});
