import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleOptions } from '../../../scripts/bundles.mjs';

// zod re-exports all its locales as `z.locales`, which no bundler can shake; our bundles keep
// English alone. Built with the engine bundle's own options, then run in a real node process.

let dir: string;
let inputs: string[];
let printed: { message: string; locales: string[] };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'zod-locales-'));
  const { entryPoints: _entry, outdir: _out, ...engine } = bundleOptions({ production: true }).engine;
  const outfile = join(dir, 'probe.js');
  const result = await build({
    ...engine,
    stdin: {
      contents:
        "import { z } from 'zod'; console.log(JSON.stringify({ message: z.object({ n: z.string() }).safeParse({ n: 1 }).error?.issues[0]?.message, locales: Object.keys(z.locales) }));",
      resolveDir: process.cwd(),
      sourcefile: 'probe.ts',
    },
    outfile,
    logLevel: 'error',
  });
  inputs = Object.keys(result.metafile?.inputs ?? {});
  printed = JSON.parse(execFileSync(process.execPath, [outfile], { encoding: 'utf8' })) as typeof printed;
}, 60_000);

afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the bundles carry zod in English only', () => {
  it('bundles no locale file but English', () => {
    const locales = inputs.filter((f) => /node_modules\/zod\/.*\/locales\//.test(f));
    expect([...new Set(locales.map((f) => f.replace(/.*\/locales\//, '')))]).toEqual(['en.js']);
  });

  it("still says what is wrong in zod's English words, and z.locales has English", () => {
    expect(printed).toEqual({ message: 'Invalid input: expected string, received number', locales: ['en'] });
  });
});
