import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentHash } from '../../../../src/core/changes/attribution/contentHash';
import { FileSnapshotStore } from '../../../../src/core/changes/attribution/fileSnapshotStore';

/**
 * The snapshot store lies beside the threads, in the workspace by default: a command can put a
 * symbolic link in the place of one of its folders. The store's clean-up and writes run outside
 * the sandbox and must not follow it to the user's files.
 */

let base: string;
let victim: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'subagents-snapshot-links-'));
  victim = join(base, 'victim');
  await mkdir(victim);
  await writeFile(join(victim, 'notes.txt'), "the user's\n");
  const old = new Date(Date.now() - 3_600_000);
  await utimes(join(victim, 'notes.txt'), old, old);
});
afterEach(() => rm(base, { recursive: true, force: true }));

const store = () => new FileSnapshotStore({ dir: join(base, 'snapshots'), maxBytes: () => 0, references: async () => [] });

describe.skipIf(process.platform === 'win32')('snapshot folders replaced by links', () => {
  it('a prefix folder linked to a folder of the user: the cap and the clean-up remove nothing there', async () => {
    await mkdir(join(base, 'snapshots', 'objects'), { recursive: true });
    await symlink(victim, join(base, 'snapshots', 'objects', 'ab'));
    await store().enforceCap();
    await store().dropUnreferenced();
    expect(existsSync(join(victim, 'notes.txt'))).toBe(true);
  });

  it('the objects folder linked elsewhere: nothing removed there', async () => {
    await mkdir(join(victim, 'cd'));
    await writeFile(join(victim, 'cd', 'draft.txt'), 'draft\n');
    const old = new Date(Date.now() - 3_600_000);
    await utimes(join(victim, 'cd', 'draft.txt'), old, old);
    await mkdir(join(base, 'snapshots'));
    await symlink(victim, join(base, 'snapshots', 'objects'));
    await store().enforceCap();
    expect(existsSync(join(victim, 'cd', 'draft.txt'))).toBe(true);
  });

  it('a snapshot is not written through a linked prefix folder', async () => {
    const content = 'echo "written outside"\n';
    const hash = contentHash(content);
    await mkdir(join(base, 'snapshots', 'objects'), { recursive: true });
    await symlink(victim, join(base, 'snapshots', 'objects', hash.slice(0, 2)));
    await expect(store().put(content)).rejects.toThrow(/symbolic link or no folder/);
    expect(await readdir(victim)).toEqual(['notes.txt']);
  });
});
