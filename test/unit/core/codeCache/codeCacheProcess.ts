import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { bundleOptions } from '../../../../scripts/bundles.mjs';

/** Builds test/fixtures/codeCacheProcess.ts (one load through the code cache) into `outdir` with the CLI's bundle options; returns its path. */
export async function buildCodeCacheProcess(outdir: string): Promise<string> {
  const { banner: _banner, ...script } = bundleOptions().cli;
  await esbuild.build({
    ...script,
    outdir,
    sourcemap: false,
    logLevel: 'error',
    entryPoints: { codeCacheProcess: 'test/fixtures/codeCacheProcess.ts' },
  });
  return join(outdir, 'codeCacheProcess.js');
}
