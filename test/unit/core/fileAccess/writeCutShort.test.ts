import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as esbuild from 'esbuild';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bundleOptions } from '../../../../scripts/bundles.mjs';
import { makeWorld } from '../tools/toolWorld';

/**
 * A write that fails midway (a full disk, a quota: here `ulimit -f`, which makes the write fail
 * with EFBIG after the first kilobytes, in a real process) leaves the old file whole, and no half
 * file or temp file behind.
 */

let script: string;
beforeAll(async () => {
  const outdir = await mkdtemp(join(tmpdir(), 'write-inside-process-'));
  const { banner: _banner, ...options } = bundleOptions().cli;
  await esbuild.build({
    ...options,
    outdir,
    sourcemap: false,
    logLevel: 'error',
    entryPoints: { writeInsideProcess: 'test/fixtures/writeInsideProcess.ts' },
  });
  script = join(outdir, 'writeInsideProcess.js');
}, 60_000);

let world: Awaited<ReturnType<typeof makeWorld>>;
beforeEach(async () => {
  world = await makeWorld();
});
afterEach(() => world.cleanup());

/** Runs the writer with files limited to `blocks` blocks (of 512 or 1024 bytes, as the shell counts them). */
async function writeLimited(file: string, bytes: number, blocks = 2): Promise<string> {
  const { stdout } = await promisify(execFile)('sh', [
    '-c',
    `ulimit -f ${blocks} && exec "$0" "$@"`,
    process.execPath,
    script,
    world.root,
    file,
    String(bytes),
  ]);
  return stdout.trim();
}

describe.skipIf(process.platform === 'win32')('a write cut short', () => {
  it('replacing a file: the old content is intact, and no temp file is left', async () => {
    const file = join(world.root, 'a.ts');
    await writeFile(file, 'the old content\n');
    expect(await writeLimited(file, 200_000)).toMatch(/^failed: .*(EFBIG|too large)/);
    expect(await readFile(file, 'utf8')).toBe('the old content\n');
    expect(await readdir(world.root)).toEqual(['a.ts']);
  });

  it('creating a file: no half file is left', async () => {
    expect(await writeLimited(join(world.root, 'new.ts'), 200_000)).toMatch(/^failed: .*(EFBIG|too large)/);
    expect(await readdir(world.root)).toEqual([]);
  });

  it('the same writer under the same limit writes a small file (the limit is what failed it)', async () => {
    const file = join(world.root, 'a.ts');
    await writeFile(file, 'the old content\n');
    expect(await writeLimited(file, 100)).toBe('written');
    expect(await readFile(file, 'utf8')).toBe('x'.repeat(100));
  });
});
