import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { locateRipgrep } from '../../../../src/core/tools/search/ripgrep/locateRipgrep';

let base: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'subagents-rg-'));
});
afterEach(() => rm(base, { recursive: true, force: true }));

async function binary(path: string, executable = true): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, '#!/bin/sh\n');
  await chmod(path, executable ? 0o755 : 0o644);
  return path;
}

describe('locateRipgrep', () => {
  const env = () => ({ PATH: join(base, 'path') });
  it.each([
    ['VS Code', ['node_modules', '@vscode', 'ripgrep', 'bin', 'rg']],
    ['VS Code, asar unpacked', ['node_modules.asar.unpacked', '@vscode', 'ripgrep', 'bin', 'rg']],
    [
      "code-server's universal package",
      ['node_modules', '@vscode', 'ripgrep-universal', 'bin', `${process.platform}-${process.arch}`, 'rg'],
    ],
  ])("finds the editor's own ripgrep (%s) before the PATH", async (_name, parts) => {
    const appRoot = join(base, 'app');
    await binary(join(base, 'path', 'rg'));
    const own = await binary(join(appRoot, ...parts));
    expect(locateRipgrep({ appRoot, env: env() })).toBe(own);
  });

  it('falls back to rg on the PATH, skipping what cannot run, and says undefined when there is none', async () => {
    const appRoot = join(base, 'app');
    await binary(join(appRoot, 'node_modules', '@vscode', 'ripgrep', 'bin', 'rg'), false);
    expect(locateRipgrep({ appRoot, env: env() })).toBeUndefined();
    const onPath = await binary(join(base, 'path', 'rg'));
    expect(locateRipgrep({ appRoot, env: env() })).toBe(onPath);
    expect(locateRipgrep({ env: env() })).toBe(onPath);
  });
});
