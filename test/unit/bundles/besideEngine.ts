import { spawnSync } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { bundleOptions, type LazyBundleName } from '../../../scripts/bundles.mjs';

/** Lazy bundles built with the production options into a fresh folder beside engine.js, as dist/ has them. */
export interface BesideEngine {
  dir: string;
  /** Each lazy bundle's metafile, by name. */
  meta: Partial<Record<LazyBundleName, Metafile>>;
}

export async function buildBesideEngine(names: readonly LazyBundleName[]): Promise<BesideEngine> {
  const dir = await mkdtemp(join(tmpdir(), 'beside-engine-'));
  const options = bundleOptions({ production: true });
  const quiet = { outdir: dir, logLevel: 'error' } as const;
  const [, ...built] = await Promise.all([
    build({ ...options.engine, ...quiet }),
    ...names.map((name) => build({ ...options[name], ...quiet })),
  ]);
  return { dir, meta: Object.fromEntries(names.map((name, i) => [name, built[i]!.metafile!])) };
}

/** Runs `code` in a fresh node process. */
export function runNode(code: string): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, ['-e', code], { encoding: 'utf8', timeout: 30_000 });
}
