import { mkdir, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isInside, resolveWorkspacePath } from '../../../../src/core/access/paths/workspacePath';
import { protectedReason } from '../../../../src/core/access/paths/protectedPaths';
import { makeWorld } from './toolWorld';

let world: Awaited<ReturnType<typeof makeWorld>>;
beforeEach(async () => {
  world = await makeWorld();
});
afterEach(() => world.cleanup());

describe('resolveWorkspacePath', () => {
  it('compares with a separator, so a sibling sharing the prefix is outside', () => {
    expect(isInside('/a/ws', '/a/ws')).toBe(true);
    expect(isInside('/a/ws', '/a/ws/x')).toBe(true);
    expect(isInside('/a/ws', '/a/ws-other/x')).toBe(false);
    expect(isInside('/a/ws', '/a/ws/../ws-other')).toBe(false);
    expect(isInside('/a/ws', '/a/ws/..foo')).toBe(true);
  });

  it('accepts relative and absolute paths inside, new or existing, and links that stay inside', async () => {
    await mkdir(join(world.root, 'src'));
    await writeFile(join(world.root, 'src', 'a.ts'), '');
    await symlink('src', join(world.root, 'alias'));
    const info = await stat(join(world.root, 'src', 'a.ts'));
    // An existing file comes with its identity, so a write can be bound to this very file.
    expect(await resolveWorkspacePath(world.root, 'src/a.ts')).toEqual({
      ok: true,
      abs: join(world.root, 'src/a.ts'),
      rel: 'src/a.ts',
      exists: true,
      identity: { dev: info.dev, ino: info.ino },
      links: 1,
    });
    expect(await resolveWorkspacePath(world.root, join(world.root, 'src/new/b.ts'))).toMatchObject({
      ok: true,
      rel: 'src/new/b.ts',
      exists: false,
    });
    expect(await resolveWorkspacePath(world.root, 'alias/a.ts')).toMatchObject({ ok: true, rel: 'src/a.ts' });
    expect(await resolveWorkspacePath(world.root, '.')).toMatchObject({ ok: true, rel: '' });
  });

  it('judges a link by where it leads: into .git is protected, a dangling link is refused', async () => {
    await mkdir(join(world.root, '.git', 'hooks'), { recursive: true });
    await symlink('.git/hooks', join(world.root, 'hooks'));
    const viaLink = await resolveWorkspacePath(world.root, 'hooks/pre-commit');
    expect(viaLink).toMatchObject({ ok: true, rel: '.git/hooks/pre-commit' });
    expect(protectedReason(viaLink.ok ? viaLink.rel : '')).toMatch(/inside \.git/);
    await symlink(join(world.sibling, 'nothing-here'), join(world.root, 'dangling'));
    expect(await resolveWorkspacePath(world.root, 'dangling')).toMatchObject({ ok: false, error: expect.stringMatching(/does not exist/) });
  });

  it('accepts the root spelled through a link to it, as an editor may report it', async () => {
    const alias = join(world.base, 'alias-of-ws');
    await symlink(world.root, alias);
    expect(await resolveWorkspacePath(alias, join(alias, 'x.txt'))).toMatchObject({
      ok: true,
      rel: 'x.txt',
      abs: join(world.root, 'x.txt'),
    });
    expect(await resolveWorkspacePath(alias, join(world.root, 'x.txt'))).toMatchObject({ ok: true, rel: 'x.txt' });
    expect(await resolveWorkspacePath(alias, join(alias, '..', 'a', 'ws-other', 'secret.txt'))).toMatchObject({ ok: false });
  });
});

describe('protectedReason', () => {
  it('ignores letter case and covers config that runs code, secrets and lock files', () => {
    for (const rel of [
      '.vscode/settings.json',
      '.VSCODE/Tasks.json',
      'sub/.git/config',
      'a.code-workspace',
      '.env',
      '.env.production',
      'yarn.lock',
      'pkg/Cargo.lock',
      '.npmrc',
      '.github/workflows/ci.yml',
      '.husky/pre-commit',
    ]) {
      expect(protectedReason(rel), rel).toBeDefined();
    }
    for (const rel of ['src/app.ts', 'README.md', 'docs/env.md', 'lock.txt', '']) expect(protectedReason(rel), rel).toBeUndefined();
  });
});
